package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
)

func casesCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("cases: missing subcommand (import or export)")
	}
	switch args[0] {
	case "import":
		fs := flag.NewFlagSet("cases import", flag.ContinueOnError)
		fs.SetOutput(stderr)
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return errors.New("usage: simulador cases import FILE (.json or .csv)")
		}
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		res, err := a.catalog.ImportCases(ctx, f, fs.Arg(0))
		if err != nil {
			return withProblems(err)
		}
		audit.Info(ctx, a.log, "data.import", slog.String("kind", "cases"), slog.Int("created", res.Created), slog.Int("updated", res.Updated))
		fmt.Fprintf(stdout, "imported %s: %d created, %d updated\n", fs.Arg(0), res.Created, res.Updated)
		return nil
	case "export":
		fs := flag.NewFlagSet("cases export", flag.ContinueOnError)
		fs.SetOutput(stderr)
		degree := fs.String("degree", "", "only this degree's cases (by name, e.g. Derecho)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if err := noArguments("cases export", fs); err != nil {
			return err
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		id := ""
		if *degree != "" {
			d, err := a.catalog.DegreeByName(ctx, *degree)
			if err != nil {
				return err
			}
			id = d.ID
		}
		cases, err := a.catalog.Export(ctx, id)
		if err != nil {
			return err
		}
		audit.Info(ctx, a.log, "data.export", slog.String("kind", "cases"), slog.String("format", "json"), slog.Int("cases", len(cases)))
		return catalog.WriteJSON(stdout, cases)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("cases: unknown subcommand %q", args[0])
}

// withProblems spells out an import's row-level problems.
func withProblems(err error) error {
	var ue *domain.UserError
	if !errors.As(err, &ue) {
		return err
	}
	ps, ok := ue.Details.([]catalog.ImportProblem)
	if !ok {
		return err
	}
	var b strings.Builder
	b.WriteString(ue.Message)
	for _, p := range ps {
		b.WriteString("\n  ")
		if p.Row > 0 {
			fmt.Fprintf(&b, "fila %d", p.Row)
			if p.Column != "" {
				fmt.Fprintf(&b, ", columna «%s»", p.Column)
			}
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return errors.New(b.String())
}
