// The Go codec driver (scripts/codec-driver.sh, docs/codecs.md): built by scripts/drivers/go.sh
// beside package codecs, the generated codecs of one schema. Reads one message per line as hex
// on standard input and writes, per message, one line: its canonical JSON, or the contract's
// error object, through the codecs' schema-level entry point codecs.AppendJSON. A line holding
// only "-" is the empty message. A line that is neither hex nor "-" is a usage error (exit
// status 2).
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"sabledriver/codecs"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	var line []byte
	for number := 1; in.Scan(); number++ {
		text := strings.TrimSpace(in.Text())
		if text == "" {
			continue
		}
		msg, err := message(text)
		if err != nil {
			fmt.Fprintf(os.Stderr, "go driver: line %d is neither hex nor -\n", number)
			os.Exit(2)
		}
		line, err = codecs.AppendJSON(line[:0], msg)
		if err != nil {
			var de *codecs.DecodeError
			if !errors.As(err, &de) {
				fmt.Fprintf(os.Stderr, "go driver: line %d: %v\n", number, err)
				os.Exit(1)
			}
			line = de.AppendJSON(line[:0])
		}
		line = append(line, '\n')
		if _, err := out.Write(line); err != nil {
			os.Exit(1)
		}
		if err := out.Flush(); err != nil {
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "go driver: reading standard input: %v\n", err)
		os.Exit(2)
	}
}

// message gives the bytes of a protocol line: its hex digits, or none for "-" (the empty
// message).
func message(text string) ([]byte, error) {
	if text == "-" {
		return []byte{}, nil
	}
	return hex.DecodeString(text)
}
