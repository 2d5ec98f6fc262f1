// Support code for the Go codecs Sable generates (docs/go.md): errors, byte order and the
// canonical JSON writers. Generated beside the codecs, in their package.

package baselinebigendian

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
)


// ErrorKind says what went wrong while decoding or encoding (docs/codecs.md, "Errors").
type ErrorKind uint8

// The error kinds, decoding then encoding. String gives the codec contract's name.
const (
	KindTruncated ErrorKind = iota + 1
	KindSchemaIDMismatch
	KindUnknownTemplate
	KindBlockLengthTooShort
	KindCountTooLarge
	KindBufferTooShort
	KindTextTooLong
	KindIndexOutOfRange
	KindValueOutOfRange
	KindLengthTooLarge
)

var kindNames = [...]string{"", "truncated", "schemaIdMismatch", "unknownTemplate",
	"blockLengthTooShort", "countTooLarge", "bufferTooShort", "textTooLong",
	"indexOutOfRange", "valueOutOfRange", "lengthTooLarge"}

// String gives the kind's name in the codec contract (`truncated`, `bufferTooShort`, ...).
func (k ErrorKind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// DecodeError says why a message could not be decoded: the offset of the item that could not
// be read (from the message's first byte), its field path and the kind.
type DecodeError struct {
	Offset int
	Field  string
	Kind   ErrorKind
	// Message is for people.
	Message string
}

func (e *DecodeError) Error() string {
	return "at message byte " + strconv.Itoa(e.Offset) + " (" + e.Field + ", " + e.Kind.String() + "): " + e.Message
}

// AppendJSON appends the error object of the codec contract:
// {"error":{"offset":N,"field":"...","kind":"...","message":"..."}}.
func (e *DecodeError) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"error":{"offset":`...)
	dst = strconv.AppendInt(dst, int64(e.Offset), 10)
	dst = append(dst, `,"field":`...)
	dst = appendString(dst, e.Field)
	dst = append(dst, `,"kind":`...)
	dst = appendString(dst, e.Kind.String())
	dst = append(dst, `,"message":`...)
	dst = appendString(dst, e.Message)
	return append(dst, "}}"...)
}

// EncodeError says why a value could not be written: the field path, the kind and the offset
// (from the message's first byte) where it was to go. The failing call writes nothing.
type EncodeError struct {
	Offset int
	Field  string
	Kind   ErrorKind
}

func (e *EncodeError) Error() string {
	return "cannot encode " + e.Field + " at message byte " + strconv.Itoa(e.Offset) + ": " + e.Kind.String()
}

// level is where a group's encoder is: the index of the entry it is at, and the level of the
// entry that holds the group (nil for a group of the message). An encoding error's path takes
// its entry indices from it, so that moving to an entry stores one number.
type level struct {
	index int
	up    *level
}

// indices are the entry indices of lv and the levels above it, outermost first.
func (lv *level) indices() []int {
	var idx []int
	for l := lv; l != nil; l = l.up {
		idx = append([]int{l.index}, idx...)
	}
	return idx
}

// fieldPath writes a path template's `[]` as the entry indices: "fields.g[].h[]" with 1, 2
// gives "fields.g[1].h[2]". Only errors call it.
func fieldPath(template string, idx []int) string {
	out := make([]byte, 0, len(template)+8)
	n := 0
	for i := 0; i < len(template); i++ {
		out = append(out, template[i])
		if template[i] == '[' && i+1 < len(template) && template[i+1] == ']' && n < len(idx) {
			out = strconv.AppendInt(out, int64(idx[n]), 10)
			n++
		}
	}
	return string(out)
}

func truncated(offset int, template string, idx []int, what string, need, have int) error {
	return &DecodeError{Offset: offset, Field: fieldPath(template, idx), Kind: KindTruncated,
		Message: "truncated message: " + what + " at offset " + strconv.Itoa(offset) + " needs " +
			strconv.Itoa(need) + " bytes, " + strconv.Itoa(max(have, 0)) + " left"}
}

func decodeError(offset int, template string, idx []int, kind ErrorKind, message string) error {
	return &DecodeError{Offset: offset, Field: fieldPath(template, idx), Kind: kind, Message: message}
}

func encodeError(offset int, template string, lv *level, kind ErrorKind) error {
	return &EncodeError{Offset: offset, Field: fieldPath(template, lv.indices()), Kind: kind}
}

// wholeFields is how many bytes of an older writer's block of n bytes, shorter than the
// schema's, hold whole fields: the greatest of the fields' ends (ends) at or below n.
func wholeFields(n int, ends ...int) int {
	w := 0
	for _, e := range ends {
		if e <= n {
			w = max(w, e)
		}
	}
	return w
}

// fits is how many of n entries of bl bytes each fit in room bytes (a division only when not
// all do).
func fits(room, bl, n int) int {
	if bl <= 0 || uint64(n)*uint64(bl) <= uint64(max(room, 0)) {
		return n
	}
	return min(n, max(room, 0)/bl)
}

// Fast paths: a method that can fail (an encoder's Next, a setter that checks its value) is
// split in two: X calls xFast, passing xFailed, its error path, as an argument. Go's inliner
// counts a call through a function parameter at 17 of its budget of 80, where a call costs 57,
// so X and xFast inline into the caller and only the error path is a call. Decoders split the
// same way a message's accessor of var data after var data (xChecked: read out of order) and
// a group's done (doneEntry: the end of an entry the caller did not move past).

// encoderState is what a message's encoders share: the buffer, where the next group or var
// data goes, and the first error.
type encoderState struct {
	buf   []byte
	limit int
	err   error
}

// setErr records err unless an error came before it.
func (s *encoderState) setErr(err error) {
	if s.err == nil {
		s.err = err
	}
}

// putVarData writes var data v at the limit: its length (ls bytes) then its bytes.
func putVarData[T string | []byte](s *encoderState, v T, ls int, big bool, max uint64, path string, lv *level) {
	at := s.limit
	if uint64(len(v)) > max {
		s.setErr(encodeError(at, path, lv, KindLengthTooLarge))
		return
	}
	end := at + ls + len(v)
	if end > len(s.buf) {
		s.setErr(encodeError(at, path, lv, KindBufferTooShort))
		return
	}
	writeUint(s.buf[at:], ls, big, uint64(len(v)))
	copy(s.buf[at+ls:end], v)
	s.limit = end
}

// varDataEnd is where var data at p ends (its length field of size ls, then its bytes), and
// whether it fits in buf.
func varDataEnd(buf []byte, p, ls int, big bool) (int, bool) {
	if p < 0 || p+ls > len(buf) {
		return 0, false
	}
	n := int(readUint(buf[p:], ls, big))
	if n < 0 || n > len(buf)-p-ls {
		return 0, false
	}
	return p + ls + n, true
}

// readUint reads an unsigned integer of 1, 2, 4 or 8 bytes.
func readUint(b []byte, size int, big bool) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		if big {
			return uint64(binary.BigEndian.Uint16(b))
		}
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		if big {
			return uint64(binary.BigEndian.Uint32(b))
		}
		return uint64(binary.LittleEndian.Uint32(b))
	default:
		if big {
			return binary.BigEndian.Uint64(b)
		}
		return binary.LittleEndian.Uint64(b)
	}
}

// writeUint writes an unsigned integer of 1, 2, 4 or 8 bytes.
func writeUint(b []byte, size int, big bool, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		if big {
			binary.BigEndian.PutUint16(b, uint16(v))
		} else {
			binary.LittleEndian.PutUint16(b, uint16(v))
		}
	case 4:
		if big {
			binary.BigEndian.PutUint32(b, uint32(v))
		} else {
			binary.LittleEndian.PutUint32(b, uint32(v))
		}
	default:
		if big {
			binary.BigEndian.PutUint64(b, v)
		} else {
			binary.LittleEndian.PutUint64(b, v)
		}
	}
}

// untilNUL is b up to its first NUL.
func untilNUL(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// nulAt returns the index of the first NUL among the n (at most 8) low bytes of x, the bytes of
// a char array read little-endian (byte i in bits 8i to 8i+7); n when there is none. A word at
// a time, with no loop: the bytes from n up are cleared, and the borrow test flags the first
// zero byte and none below it (bytes above it may be flagged too).
func nulAt(x uint64, n int) int {
	x &= 1<<(8*n) - 1
	return bits.TrailingZeros64((x-0x0101010101010101)&^x&0x8080808080808080) / 8
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends one character of a JSON string, escaped as the canonical JSON does.
func appendEscaped(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&15])
	}
	return utf8.AppendRune(dst, r)
}

// appendString appends s (UTF-8) as a JSON string.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for _, r := range s {
		dst = appendEscaped(dst, r)
	}
	return append(dst, '"')
}

// appendHex appends b as a JSON string of lowercase hex.
func appendHex(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(dst, '"')
}

// appendText appends text in its character encoding as a JSON string: UTF-8 (invalid UTF-8 as
// {"hex":...} of all), else one character per byte.
func appendText(dst []byte, text, all []byte, isUTF8 bool) []byte {
	if isUTF8 {
		if !utf8.Valid(text) {
			dst = append(dst, `{"hex":`...)
			dst = appendHex(dst, all)
			return append(dst, '}')
		}
		dst = append(dst, '"')
		for len(text) > 0 {
			r, n := utf8.DecodeRune(text)
			dst = appendEscaped(dst, r)
			text = text[n:]
		}
		return append(dst, '"')
	}
	dst = append(dst, '"')
	for _, c := range text {
		dst = appendEscaped(dst, rune(c))
	}
	return append(dst, '"')
}

// appendChars appends a char array: its bytes up to the first NUL, as text.
func appendChars(dst []byte, b []byte, isUTF8 bool) []byte {
	return appendText(dst, untilNUL(b), b, isUTF8)
}

// appendFloat appends a float (bits 32 or 64) as the canonical JSON does: the shortest digits,
// laid out as Ryu lays them out (plain decimal when the exponent lies in lo..hi).
func appendFloat(dst []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(dst, `"-Infinity"`...)
	}
	lo, hi := -5, 15
	if bits == 32 {
		lo, hi = -6, 12
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], v, 'e', -1, bits)
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	var digits [24]byte
	nd, i := 0, 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[nd] = e[i]
			nd++
		}
	}
	exp, neg := 0, false
	for _, c := range e[i+1:] {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			exp = exp*10 + int(c-'0')
		}
	}
	if neg {
		exp = -exp
	}
	d := digits[:nd]
	switch {
	case exp < lo || exp > hi:
		dst = append(dst, d[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		return strconv.AppendInt(dst, int64(exp), 10)
	case exp >= 0:
		if nd <= exp+1 {
			dst = append(dst, d...)
			for j := nd; j < exp+1; j++ {
				dst = append(dst, '0')
			}
			return append(dst, '.', '0')
		}
		dst = append(dst, d[:exp+1]...)
		dst = append(dst, '.')
		return append(dst, d[exp+1:]...)
	default:
		dst = append(dst, '0', '.')
		for j := 0; j < -exp-1; j++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
}

// appendSet appends a set's JSON array: the names of the bits set in choice order, then
// unnamed bits by number.
func appendSet(dst []byte, bits uint64, names []string, choiceBits []uint8) []byte {
	dst = append(dst, '[')
	first := true
	var named uint64
	for i, name := range names {
		named |= 1 << choiceBits[i]
		if bits&(1<<choiceBits[i]) != 0 {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendString(dst, name)
		}
	}
	for bit := 0; bit < 64; bit++ {
		if bits&^named&(1<<bit) != 0 {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = strconv.AppendInt(dst, int64(bit), 10)
		}
	}
	return append(dst, ']')
}
