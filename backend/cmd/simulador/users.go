package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/utpl/simulador/backend/internal/domain"
)

func usersCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("users: missing subcommand (create or set-role)")
	}
	fs := flag.NewFlagSet("users "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "the user's email")
	role := fs.String("role", "", "tutor or estudiante")
	switch args[0] {
	case "create":
		password := fs.String("password", "", "the initial password (at least 8 characters)")
		name := fs.String("name", "", `full name, e.g. "Ana María Pérez Loaiza"`)
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if err := noArguments("users create", fs); err != nil {
			return err
		}
		r, err := parseRoleFlags(*email, *role)
		if err != nil {
			return err
		}
		if *password == "" {
			return errors.New("users create: --password is required")
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		u, err := a.auth.CreateUser(ctx, *email, *password, r, *name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %s (%s) with role %s\n", u.Mail, u.ID, u.Role)
		return nil
	case "set-role":
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if err := noArguments("users set-role", fs); err != nil {
			return err
		}
		r, err := parseRoleFlags(*email, *role)
		if err != nil {
			return err
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		u, err := a.auth.SetRole(ctx, *email, r)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s now has role %s\n", u.Mail, u.Role)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("users: unknown subcommand %q", args[0])
}

func parseRoleFlags(email, role string) (domain.Role, error) {
	if email == "" {
		return "", errors.New("--email is required")
	}
	r, ok := domain.ParseRole(role)
	if !ok {
		return "", fmt.Errorf("--role must be tutor or estudiante (got %q)", role)
	}
	return r, nil
}
