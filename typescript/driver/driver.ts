// The TypeScript codec driver (protocol: scripts/codec-driver.sh): reads one message per line as
// hex and prints its canonical JSON, or the contract's error object, through the generated
// module's schema-level entry point (`toJson`). scripts/drivers/typescript.sh generates the
// module `codecs.ts` beside this file and compiles both with tsc.
import { createInterface } from "node:readline";
import { DecodeError, toJson } from "./codecs.js";

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

async function main(): Promise<number> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number++;
    const text = line.trim();
    if (text === "") continue;
    if (text !== "-" && !HEX.test(text)) {
      process.stderr.write(`typescript driver: line ${number} is not hex\n`);
      return 2;
    }
    // "-" is the empty message (an empty line is skipped).
    const message = text === "-" ? new Uint8Array(0) : Uint8Array.from(Buffer.from(text, "hex"));
    let out: string;
    try {
      out = toJson(message);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      out = `{"error":${e.json()}}`;
    }
    process.stdout.write(out + "\n");
  }
  return 0;
}

process.exitCode = await main();
