//! Writes a synthetic CME MDP 3.0 capture for scripts/bench-columnar.sh: a classic pcap file of
//! UDP datagrams (10.0.0.1:5000 -> 224.0.31.1:14310), each an MDP 3.0 packet (sequence number,
//! sending time, then 1 to 4 messages each after its 2-byte size) of the messages of
//! `examples/mdp3.xml`, encoded by `sable_otf`'s encoder. The same arguments write the same
//! bytes (a fixed-seed generator), so nothing large is committed.
//!
//! ```text
//! cargo run --release -p sable-columnar --example mdp3_capture -- examples/mdp3.xml OUT.pcap [MESSAGES]
//! ```
//!
//! The mix (of 1,000,000 messages, about 150 MB of capture): MDIncrementalRefreshBook46 60 %
//! (1 to 4 book entries, 0 to 3 order entries), MDIncrementalRefreshOrderBook47 20 % (1 to 3
//! entries), MDIncrementalRefreshTradeSummary48 18 % (1 or 2 entries, 1 to 4 order entries),
//! SecurityStatus30 2 %; 50 instruments around 5000.00 with a tick of 0.25. Prints the number
//! of packets and messages, and the bytes of SBE messages and of the capture.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::Path;

use sable_framing::capture::write::{ipv4_udp, PcapWriter};
use sable_otf::encode::Encoder;

/// splitmix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() as usize % items.len()]
    }
}

/// The messages' state: sequence counters and books, so that the values look like a feed's.
struct Feed {
    rng: Rng,
    rpt_seq: [u32; 50],
    order_id: u64,
    trade_id: u32,
    /// Nanoseconds since the UNIX epoch (2026-11-30 14:30 UTC at the start).
    now: u64,
}

const SECURITY_BASE: i64 = 20_000;
const TICK: i64 = 250_000_000; // 0.25 at exponent -9

impl Feed {
    fn security(&mut self) -> (usize, i64) {
        let i = self.rng.range(0, 49) as usize;
        (i, SECURITY_BASE + i as i64)
    }

    fn price(&mut self, i: usize) -> i64 {
        let mid = 5_000 * 1_000_000_000 + i as i64 * 40 * TICK;
        mid + (self.rng.range(0, 40) as i64 - 20) * TICK
    }

    fn rpt_seq(&mut self, i: usize) -> u32 {
        self.rpt_seq[i] += 1;
        self.rpt_seq[i]
    }

    fn match_event(&mut self) -> &'static str {
        match self.rng.range(0, 3) {
            0 => r#"["LastQuoteMsg"]"#,
            1 => r#"["LastQuoteMsg","EndOfEvent"]"#,
            2 => r#"["LastImpliedMsg","EndOfEvent"]"#,
            _ => r#"["EndOfEvent"]"#,
        }
    }

    /// One message as canonical JSON.
    fn message(&mut self, out: &mut String) {
        out.clear();
        let kind = self.rng.range(0, 99);
        let transact = self.now - self.rng.range(1_000, 20_000);
        let mei = self.match_event();
        if kind < 60 {
            let _ = write!(
                out,
                r#"{{"message":"MDIncrementalRefreshBook46","fields":{{"TransactTime":{transact},"MatchEventIndicator":{mei},"NoMDEntries":["#
            );
            for e in 0..self.rng.range(1, 4) {
                let (i, id) = self.security();
                let px = self.price(i);
                let action = self.rng.pick(&["New", "Change", "Change", "Delete"]);
                let side = self
                    .rng
                    .pick(&["Bid", "Offer", "Bid", "Offer", "ImpliedBid"]);
                let (size, orders) = if action == "Delete" {
                    ("null".to_owned(), "null".to_owned())
                } else {
                    (
                        self.rng.range(1, 500).to_string(),
                        self.rng.range(1, 40).to_string(),
                    )
                };
                let level = self.rng.range(1, 10);
                let seq = self.rpt_seq(i);
                let _ = write!(
                    out,
                    r#"{}{{"MDEntryPx":{{"mantissa":{px}}},"MDEntrySize":{size},"SecurityID":{id},"RptSeq":{seq},"NumberOfOrders":{orders},"MDPriceLevel":{level},"MDUpdateAction":"{action}","MDEntryType":"{side}"}}"#,
                    if e > 0 { "," } else { "" }
                );
            }
            out.push_str(r#"],"NoOrderIDEntries":["#);
            for e in 0..self.rng.range(0, 3) {
                self.order_id += self.rng.range(1, 9);
                let priority = self.order_id * 3 + 11;
                let qty = self.rng.range(1, 100);
                let reference = self.rng.range(1, 4);
                let action = self.rng.pick(&["New", "Update", "Delete"]);
                let _ = write!(
                    out,
                    r#"{}{{"OrderID":{},"MDOrderPriority":{priority},"MDDisplayQty":{qty},"ReferenceID":{reference},"OrderUpdateAction":"{action}"}}"#,
                    if e > 0 { "," } else { "" },
                    self.order_id
                );
            }
            out.push_str("]}}");
        } else if kind < 80 {
            let _ = write!(
                out,
                r#"{{"message":"MDIncrementalRefreshOrderBook47","fields":{{"TransactTime":{transact},"MatchEventIndicator":{mei},"NoMDEntries":["#
            );
            for e in 0..self.rng.range(1, 3) {
                let (i, id) = self.security();
                let px = self.price(i);
                self.order_id += self.rng.range(1, 9);
                let action = self.rng.pick(&["New", "Change", "Delete"]);
                let side = self.rng.pick(&["Bid", "Offer"]);
                let qty = self.rng.range(1, 200);
                let _ = write!(
                    out,
                    r#"{}{{"OrderID":{},"MDOrderPriority":{},"MDEntryPx":{{"mantissa":{px}}},"MDDisplayQty":{qty},"SecurityID":{id},"MDUpdateAction":"{action}","MDEntryType":"{side}"}}"#,
                    if e > 0 { "," } else { "" },
                    self.order_id,
                    self.order_id * 3 + 7
                );
            }
            out.push_str("]}}");
        } else if kind < 98 {
            let _ = write!(
                out,
                r#"{{"message":"MDIncrementalRefreshTradeSummary48","fields":{{"TransactTime":{transact},"MatchEventIndicator":["LastTradeMsg","EndOfEvent"],"NoMDEntries":["#
            );
            let mut total = 0;
            for e in 0..self.rng.range(1, 2) {
                let (i, id) = self.security();
                let px = self.price(i);
                let size = self.rng.range(1, 50);
                total += size;
                let orders = self.rng.range(2, 6);
                let side = self.rng.pick(&["Buy", "Sell"]);
                let seq = self.rpt_seq(i);
                self.trade_id += 1;
                let _ = write!(
                    out,
                    r#"{}{{"MDEntryPx":{{"mantissa":{px}}},"MDEntrySize":{size},"SecurityID":{id},"RptSeq":{seq},"NumberOfOrders":{orders},"AggressorSide":"{side}","MDUpdateAction":"New","MDTradeEntryID":{}}}"#,
                    if e > 0 { "," } else { "" },
                    self.trade_id
                );
            }
            out.push_str(r#"],"NoOrderIDEntries":["#);
            for e in 0..self.rng.range(1, 4) {
                self.order_id += self.rng.range(1, 9);
                let _ = write!(
                    out,
                    r#"{}{{"OrderID":{},"LastQty":{}}}"#,
                    if e > 0 { "," } else { "" },
                    self.order_id,
                    total / 2 + 1
                );
            }
            out.push_str("]}}");
        } else {
            let (_, id) = self.security();
            let status = self
                .rng
                .pick(&["ReadyToTrade", "PreOpen", "TradingHalt", "Close"]);
            let _ = write!(
                out,
                r#"{{"message":"SecurityStatus30","fields":{{"TransactTime":{transact},"SecurityGroup":"ES","Asset":"ES","SecurityID":{id},"TradeDate":20787,"MatchEventIndicator":["EndOfEvent"],"SecurityTradingStatus":"{status}","HaltReason":"GroupSchedule","SecurityTradingEvent":"NoEvent"}}}}"#
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: mdp3_capture SCHEMA.xml OUT.pcap [MESSAGES]");
        std::process::exit(2);
    }
    let total: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let compiled = sable_schema::compile_file(Path::new(&args[0]));
    let Some(ir) = compiled.ir else {
        for d in &compiled.diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    };
    let encoder = Encoder::new(&ir).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let file = std::fs::File::create(&args[1]).unwrap_or_else(|e| {
        eprintln!("cannot write {}: {e}", args[1]);
        std::process::exit(1)
    });
    let mut pcap = PcapWriter::new(BufWriter::with_capacity(1 << 20, file)).expect("header");
    let mut feed = Feed {
        rng: Rng(0x0005_AB1E_0022),
        rpt_seq: [0; 50],
        order_id: 7_000_000_000,
        trade_id: 0,
        now: 1_796_049_000_000_000_000,
    };
    let src = "10.0.0.1:5000".parse().expect("address");
    let dst = "224.0.31.1:14310".parse().expect("address");
    let (mut messages, mut packets, mut sbe_bytes) = (0u64, 0u32, 0u64);
    let mut json = String::with_capacity(2048);
    let mut encoded = Vec::with_capacity(2048);
    let mut packet = Vec::with_capacity(1500);
    while messages < total {
        packets += 1;
        feed.now += feed.rng.range(500, 50_000);
        packet.clear();
        packet.extend_from_slice(&sable_framing::mdp3_packet_header(packets, feed.now));
        let n = match feed.rng.range(0, 9) {
            0..=3 => 1,
            4..=6 => 2,
            7..=8 => 3,
            _ => 4,
        }
        .min(total - messages);
        for _ in 0..n {
            feed.message(&mut json);
            encoded.clear();
            if let Err(e) = encoder.encode_json(&json, &mut encoded) {
                eprintln!("{e}: {json}");
                std::process::exit(1);
            }
            packet.extend_from_slice(&((encoded.len() + 2) as u16).to_le_bytes());
            packet.extend_from_slice(&encoded);
            sbe_bytes += encoded.len() as u64;
        }
        messages += n;
        let frame = ipv4_udp(src, dst, &packet);
        // Captured 2 to 9 microseconds after it was sent.
        let captured = feed.now + feed.rng.range(2_000, 9_000);
        pcap.packet(captured, &frame).expect("write");
    }
    let mut out = pcap.into_inner();
    out.flush().expect("write");
    let size = std::fs::metadata(&args[1]).map(|m| m.len()).unwrap_or(0);
    println!(
        "{packets} packets, {messages} messages, {sbe_bytes} bytes of SBE, {size} bytes of capture"
    );
}
