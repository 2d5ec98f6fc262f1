//! Values as a person reads them (`docs/json.md`, "Readable forms"): a composite of mantissa and
//! exponent as an exact decimal, a timestamp as ISO-8601 UTC, a date as `YYYY-MM-DD`. Which
//! fields have such a form is decided from the IR when the decoder's plan is built
//! ([`Readable`]); the text form shows them, and the JSON printer adds them beside the raw
//! values when asked.

/// What a field or composite reads as, beside its raw value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Readable {
    /// Nothing more than its value.
    #[default]
    Raw,
    /// A composite of members `mantissa` and `exponent` (integers; the exponent constant or
    /// not): `mantissa × 10^exponent`.
    Decimal,
    /// An integer counting `10^-digits` seconds since `epoch_days` days after 1970-01-01.
    Timestamp { digits: u8, epoch_days: i64 },
    /// An integer counting days since `epoch_days` days after 1970-01-01.
    Date { epoch_days: i64 },
}

impl Readable {
    /// An integer field's form, from its encoding's `epoch`, `timeUnit` and semantic type:
    /// a timestamp when it has a time unit or an epoch, or is a `UTCTimestamp` (nanoseconds since
    /// the UNIX epoch by default); a date when it is a `UTCDateOnly` or `LocalMktDate`. An epoch
    /// or unit Sable does not know leaves it raw.
    pub(crate) fn of_integer(
        epoch: Option<&str>,
        time_unit: Option<&str>,
        semantic_type: Option<&str>,
    ) -> Readable {
        let Some(epoch_days) = epoch.map_or(Some(0), epoch_days) else {
            return Readable::Raw;
        };
        match semantic_type {
            Some("UTCDateOnly" | "LocalMktDate") => return Readable::Date { epoch_days },
            Some("UTCTimestamp") => {}
            _ if epoch.is_some() || time_unit.is_some() => {}
            _ => return Readable::Raw,
        }
        let digits = match time_unit.map(str::to_ascii_lowercase).as_deref() {
            None | Some("nanosecond" | "nanoseconds") => 9,
            Some("microsecond" | "microseconds") => 6,
            Some("millisecond" | "milliseconds") => 3,
            Some("second" | "seconds") => 0,
            Some(_) => return Readable::Raw,
        };
        Readable::Timestamp { digits, epoch_days }
    }

    /// Writes the readable form of `value`, an integer of this form (not for [`Readable::Raw`]
    /// and [`Readable::Decimal`]); `false` (nothing written) when it has none (out of the range
    /// of years 0 to 9999).
    pub(crate) fn write_integer(self, out: &mut Vec<u8>, value: i128) -> bool {
        match self {
            Readable::Timestamp { digits, epoch_days } => {
                let scale = 10i128.pow(u32::from(digits));
                let seconds = value.div_euclid(scale);
                let fraction = value.rem_euclid(scale);
                let days = seconds.div_euclid(86_400) + i128::from(epoch_days);
                let in_day = seconds.rem_euclid(86_400);
                if !write_date(out, days) {
                    return false;
                }
                // 0 <= in_day < 86,400 and 0 <= fraction < 10^digits: both fit a u64.
                let in_day = in_day as u64;
                out.push(b'T');
                push_padded(out, in_day / 3600, 2);
                out.push(b':');
                push_padded(out, in_day / 60 % 60, 2);
                out.push(b':');
                push_padded(out, in_day % 60, 2);
                if digits > 0 {
                    out.push(b'.');
                    push_padded(out, fraction as u64, usize::from(digits));
                }
                out.push(b'Z');
                true
            }
            Readable::Date { epoch_days } => write_date(out, value + i128::from(epoch_days)),
            Readable::Raw | Readable::Decimal => false,
        }
    }
}

/// A Unix time in nanoseconds as ISO-8601 (RFC 3339) UTC with nanoseconds, as the readable
/// forms write a `UTCTimestamp`: `2026-11-21T23:02:00.000000001Z`.
pub fn utc_timestamp_ns(ns: u64) -> String {
    let mut out = Vec::with_capacity(30);
    write_utc_timestamp_ns(&mut out, ns);
    String::from_utf8(out).expect("ASCII digits and separators")
}

/// Appends [`utc_timestamp_ns`]'s form of `ns` to `out`, without allocating beyond `out`.
pub fn write_utc_timestamp_ns(out: &mut Vec<u8>, ns: u64) {
    let nanoseconds = Readable::Timestamp {
        digits: 9,
        epoch_days: 0,
    };
    // Every u64 of nanoseconds lies before the year 2555, within what a date can be written as.
    let written = nanoseconds.write_integer(out, i128::from(ns));
    debug_assert!(written);
}

/// Appends `value` in decimal, padded with leading zeros to at least `width` digits (as
/// `format!("{value:0width$}")`, without its formatting machinery: timestamps are written per
/// message).
fn push_padded(out: &mut Vec<u8>, value: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut start = digits.len();
    let mut rest = value;
    while rest > 0 {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    let start = start.min(digits.len().saturating_sub(width));
    out.extend_from_slice(&digits[start..]);
}

/// The days from 1970-01-01 to an epoch given as `unix` or a date `YYYY-MM-DD`.
fn epoch_days(epoch: &str) -> Option<i64> {
    if epoch.eq_ignore_ascii_case("unix") {
        return Some(0);
    }
    let mut parts = epoch.splitn(3, '-');
    let mut next = |len: usize| {
        parts
            .next()
            .filter(|p| p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<i64>().ok())
    };
    let (y, m, d) = (next(4)?, next(2)?, next(2)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Writes the date `days` after 1970-01-01 as `YYYY-MM-DD` (Hinnant's `civil_from_days`);
/// `false` (nothing written) outside the years 0 to 9999.
fn write_date(out: &mut Vec<u8>, days: i128) -> bool {
    // Years 0 to 9999 lie within these days; anything further has no four-digit year.
    if !(-719_528..=2_932_896).contains(&days) {
        return false;
    }
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    // Within the days above, 0 <= y <= 9999, 1 <= m <= 12 and 1 <= d <= 31.
    push_padded(out, y as u64, 4);
    out.push(b'-');
    push_padded(out, m as u64, 2);
    out.push(b'-');
    push_padded(out, d as u64, 2);
    true
}

/// Writes `mantissa × 10^exponent` as an exact decimal: no exponent, no trailing zeros after
/// the point, no point for a whole number (`129.52`, `-0.0001`, `500`, `0`). An exponent beyond
/// ±64 is written as `{mantissa}e{exponent}` rather than spelled out.
pub(crate) fn write_decimal(out: &mut Vec<u8>, mantissa: i128, exponent: i64) {
    if mantissa == 0 {
        out.push(b'0');
        return;
    }
    if exponent.unsigned_abs() > 64 {
        out.extend_from_slice(format!("{mantissa}e{exponent}").as_bytes());
        return;
    }
    if mantissa < 0 {
        out.push(b'-');
    }
    let digits = mantissa.unsigned_abs().to_string();
    if exponent >= 0 {
        out.extend_from_slice(digits.as_bytes());
        out.extend(std::iter::repeat(b'0').take(exponent as usize));
        return;
    }
    let point = exponent.unsigned_abs() as usize;
    let (whole, fraction) = if digits.len() > point {
        let (w, f) = digits.split_at(digits.len() - point);
        (w.to_owned(), f.to_owned())
    } else {
        ("0".to_owned(), format!("{digits:0>point$}"))
    };
    out.extend_from_slice(whole.as_bytes());
    let fraction = fraction.trim_end_matches('0');
    if !fraction.is_empty() {
        out.push(b'.');
        out.extend_from_slice(fraction.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decimal(m: i128, e: i64) -> String {
        let mut out = Vec::new();
        write_decimal(&mut out, m, e);
        String::from_utf8(out).unwrap()
    }

    fn integer(r: Readable, v: i128) -> Option<String> {
        let mut out = Vec::new();
        r.write_integer(&mut out, v)
            .then(|| String::from_utf8(out).unwrap())
    }

    #[test]
    fn unix_nanoseconds_are_rfc3339_utc() {
        assert_eq!(utc_timestamp_ns(0), "1970-01-01T00:00:00.000000000Z");
        assert_eq!(
            utc_timestamp_ns(951_782_400_000_000_007),
            "2000-02-29T00:00:00.000000007Z"
        );
        assert_eq!(
            utc_timestamp_ns(1_795_302_000_123_456_789),
            "2026-11-21T23:00:00.123456789Z"
        );
        assert_eq!(utc_timestamp_ns(u64::MAX), "2554-07-21T23:34:33.709551615Z");
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(decimal(12_952_000_000_000, -9), "12952");
        assert_eq!(decimal(12_952_500_000_000, -9), "12952.5");
        assert_eq!(decimal(-1, -4), "-0.0001");
        assert_eq!(decimal(5, 2), "500");
        assert_eq!(decimal(0, -9), "0");
        assert_eq!(decimal(i128::from(i64::MAX), -9), "9223372036.854775807");
        assert_eq!(decimal(i128::from(i64::MIN), -18), "-9.223372036854775808");
        assert_eq!(decimal(7, 100), "7e100");
    }

    #[test]
    fn timestamps_and_dates() {
        let ns = Readable::of_integer(None, None, Some("UTCTimestamp"));
        assert_eq!(
            integer(ns, 1_700_000_000_123_456_789).as_deref(),
            Some("2023-11-14T22:13:20.123456789Z")
        );
        assert_eq!(
            integer(ns, 0).as_deref(),
            Some("1970-01-01T00:00:00.000000000Z")
        );
        let ms = Readable::of_integer(None, Some("millisecond"), None);
        assert_eq!(integer(ms, -1).as_deref(), Some("1969-12-31T23:59:59.999Z"));
        let s = Readable::of_integer(Some("2000-01-01"), Some("second"), None);
        assert_eq!(integer(s, 86_400).as_deref(), Some("2000-01-02T00:00:00Z"));
        assert_eq!(integer(s, i128::from(u64::MAX)), None);
        let date = Readable::of_integer(None, None, Some("LocalMktDate"));
        assert_eq!(integer(date, 20_000).as_deref(), Some("2024-10-04"));
        assert_eq!(integer(date, 0).as_deref(), Some("1970-01-01"));
        assert_eq!(integer(date, -719_528).as_deref(), Some("0000-01-01"));
        assert_eq!(integer(date, 2_932_896).as_deref(), Some("9999-12-31"));
        assert_eq!(integer(date, 2_932_897), None);
        assert_eq!(Readable::of_integer(None, None, Some("Qty")), Readable::Raw);
        assert_eq!(
            Readable::of_integer(Some("tuesday"), None, Some("UTCTimestamp")),
            Readable::Raw
        );
        assert_eq!(
            Readable::of_integer(None, Some("fortnight"), None),
            Readable::Raw
        );
    }
}
