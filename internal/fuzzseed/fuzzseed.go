// Package fuzzseed holds the hostile inputs every fuzz target of Sztab
// starts from, beside its package's real example files: huge and
// non-finite numbers, deep nesting, YAML alias bombs, invalid UTF-8. Only
// tests import it.
package fuzzseed

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Files returns the contents of the files matching each glob pattern, in
// name order; a pattern that matches nothing fails the test (a seed corpus
// that silently lost its examples is no corpus).
func Files(tb testing.TB, patterns ...string) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, p := range patterns {
		names, err := filepath.Glob(p)
		if err != nil {
			tb.Fatal(err)
		}
		if len(names) == 0 {
			tb.Fatalf("fuzzseed: no file matches %s", p)
		}
		sort.Strings(names)
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

// Numbers are scalars at and past the edges of Go's number types, and the
// non-finite floats in YAML's and JSON-ish spellings.
var Numbers = []string{
	"0", "-0", "-1", "1e999", "-1e999", "4.9e-324", "1.7976931348623157e308",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809",
	"18446744073709551616", "99999999999999999999999999999999", "0x7FFFFFFFFFFFFFFF",
	"0o777", "0b101", ".nan", ".NaN", ".inf", "-.inf", "+.Inf", "NaN", "Infinity", "1_000",
}

// AliasBomb is a YAML document whose key holds a "billion laughs": nine
// levels of ten aliases each (10⁹ scalars once expanded).
func AliasBomb(key string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n  - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", key)
	for i := 1; i <= 9; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", ")
		fmt.Fprintf(&b, "  - &a%d [%s]\n", i, refs)
	}
	return []byte(b.String())
}

// YAML returns hostile YAML documents; key names a field of the format
// being fuzzed so that some of them reach past the first lookup.
func YAML(key string) [][]byte {
	docs := []string{
		"",
		"---\n---\n",
		"\xef\xbb\xbf" + key + ": x\n",
		"\xff\xfe\xfd",
		key + ": \"\xc3\x28\"\n",
		key + ": \x00\n",
		key + ": &x [*x]\n",
		"base: &b {" + key + ": 1}\nother:\n  <<: *b\n",
		"<<: {" + key + ": 1}\n",
		MergeKeyPanic(key),
		key + ": !!binary gIGC\n",
		key + ": !!timestamp 2026-13-45\n",
		key + ": !!float x\n",
		key + ": !unknown 1\n",
		"? [" + key + "]\n: 1\n",
		key + ":\n" + strings.Repeat("  ", 200) + "- x\n",
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
		key + ": " + strings.Repeat("{a: ", 3000) + "1" + strings.Repeat("}", 3000) + "\n",
		nested(key, 500),
		key + ": [" + strings.Repeat("x, ", 10000) + "x]\n",
		key + ": " + strings.Repeat("x", 1<<16) + "\n",
	}
	out := make([][]byte, 0, len(docs)+len(Numbers)+1)
	for _, d := range docs {
		out = append(out, []byte(d))
	}
	for _, n := range Numbers {
		out = append(out, []byte(key+": "+n+"\n"))
	}
	return append(out, AliasBomb(key))
}

// MergeKeyPanic is a merge key beside a mapping used as a key, which
// makes yaml.v3 v3.0.1 panic (go-yaml/yaml#895) unless the decoding goes
// through internal/yamlsafe.
func MergeKeyPanic(key string) string { return "<<: " + key + "\n{" + key + "}: 1\n" }

// nested is a block mapping depth levels deep under key.
func nested(key string, depth int) string {
	var b strings.Builder
	b.WriteString(key + ":\n")
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat(" ", i), i)
	}
	fmt.Fprintf(&b, "%sx\n", strings.Repeat(" ", depth+1))
	return b.String()
}

// JSON returns hostile JSON values; key names a field of the format being
// fuzzed.
func JSON(key string) [][]byte {
	docs := []string{
		"", "null", "[]", "{}", "\"\"", "{\"" + key + "\":null}",
		"{\"" + key + "\":1,\"" + key + "\":2}",
		"{\"" + strings.ToUpper(key) + "\":1}",
		"{\"" + key + "\":\"\xff\xfe\"}",
		"{\"" + key + "\":\"\\ud800\"}",
		"{\"" + key + "\":" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}",
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
		"{\"" + key + "\":\"" + strings.Repeat("x", 1<<16) + "\"}",
		"{\"" + key + "\":1} trailing",
		"{\"" + key + "\":1}\n{\"" + key + "\":2}",
	}
	out := make([][]byte, 0, len(docs)+len(Numbers))
	for _, d := range docs {
		out = append(out, []byte(d))
	}
	for _, n := range Numbers {
		out = append(out, []byte("{\""+key+"\":"+n+"}"))
	}
	return out
}
