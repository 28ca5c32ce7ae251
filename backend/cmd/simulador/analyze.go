package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/utpl/simulador/backend/internal/measures"
)

// analyzeCommand measures a transcript read from standard input and prints
// the report as JSON. It needs no server and no database.
func analyzeCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	casePath := fs.String("case", "", "a case in the exchange format (JSON object, or a list with one case) to compare against")
	durationSec := fs.Float64("duration", 0, "spoken duration in seconds, for words and fillers per minute")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArguments("analyze", fs); err != nil {
		return err
	}
	text, err := io.ReadAll(io.LimitReader(stdin, 4<<20))
	if err != nil {
		return err
	}
	in := measures.Input{Text: string(text), DurationMs: int64(*durationSec * 1000)}
	if *casePath != "" {
		c, err := readCase(*casePath)
		if err != nil {
			return err
		}
		in.Case = &c
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(measures.Analyze(in))
}

func readCase(path string) (measures.Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return measures.Case{}, err
	}
	data = bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\ufeff"))
	var c measures.Case
	if len(data) > 0 && data[0] == '[' {
		var list []measures.Case
		if err := json.Unmarshal(data, &list); err != nil {
			return c, fmt.Errorf("--case %s: %w", path, err)
		}
		if len(list) != 1 {
			return c, fmt.Errorf("--case %s: expected one case, found %d", path, len(list))
		}
		return list[0], nil
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("--case %s: %w", path, err)
	}
	if len(c.KeyPoints) == 0 && len(c.LegalBases) == 0 {
		return c, errors.New("--case: the case has no keyPoints or legalBases")
	}
	return c, nil
}
