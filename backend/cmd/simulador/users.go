package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
)

// usersSubcommand is one `users` subcommand: which input it takes besides
// --email, and what it does once the input is checked and the app is open.
type usersSubcommand struct {
	named    bool // takes --name
	role     bool // needs --role
	password bool // reads a new password from standard input (never from --password)
	// run does the change and answers the line that reports it.
	run func(ctx context.Context, a *app, in usersInput) (string, error)
}

type usersInput struct {
	email, name, password string
	role                  domain.Role
}

var usersSubcommands = map[string]usersSubcommand{
	"create": {named: true, role: true, password: true, run: func(ctx context.Context, a *app, in usersInput) (string, error) {
		u, err := a.auth.CreateUser(ctx, in.email, in.password, in.role, in.name)
		return fmt.Sprintf("created %s (%s) with role %s", u.Mail, u.ID, u.Role), err
	}},
	"set-password": {password: true, run: func(ctx context.Context, a *app, in usersInput) (string, error) {
		u, err := a.auth.SetPassword(ctx, in.email, in.password)
		return fmt.Sprintf("%s has a new password; all of their sessions were ended", u.Mail), err
	}},
	"set-role": {role: true, run: func(ctx context.Context, a *app, in usersInput) (string, error) {
		u, err := a.auth.SetRole(ctx, in.email, in.role)
		return fmt.Sprintf("%s now has role %s", u.Mail, u.Role), err
	}},
	"reset-mfa": {run: func(ctx context.Context, a *app, in usersInput) (string, error) {
		u, err := a.auth.ResetMFA(ctx, in.email)
		return fmt.Sprintf("%s no longer has two-step verification; they sign in with their password and may set it up again", u.Mail), err
	}},
}

func usersCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("users: missing subcommand (create, set-password, set-role, reset-mfa or import-firebase)")
	}
	if args[0] == "import-firebase" {
		return importFirebaseCommand(ctx, args[1:], stdin, stdout, stderr)
	}
	sub, ok := usersSubcommands[args[0]]
	if !ok {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("users: unknown subcommand %q", args[0])
	}
	command := "users " + args[0]
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "the user's email")
	role := fs.String("role", "", "tutor or estudiante")
	name := new(string)
	if sub.named {
		name = fs.String("name", "", `full name, e.g. "Ana María Pérez Loaiza"`)
	}
	if sub.password {
		if err := noPasswordFlag(command, args[1:]); err != nil {
			return err
		}
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if err := noArguments(command, fs); err != nil {
		return err
	}
	in := usersInput{email: *email, name: *name}
	if sub.role {
		r, err := parseRoleFlags(*email, *role)
		if err != nil {
			return err
		}
		in.role = r
	} else if *email == "" {
		return errors.New("--email is required")
	}
	if sub.password {
		password, err := readPassword(stdin, stderr, command, *email)
		if err != nil {
			return err
		}
		in.password = password
	}
	a, err := newApp(ctx, stderr, false)
	if err != nil {
		return err
	}
	defer a.Close()
	line, err := sub.run(ctx, a, in)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, line)
	return nil
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

// noPasswordFlag refuses --password: a password on the command line is
// visible to every user of the machine (ps) and kept in shell history.
func noPasswordFlag(command string, args []string) error {
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "password" {
			return fmt.Errorf("%s: --password is not accepted: the password is read from standard input "+
				"(typed at the prompt, or piped: printf '%%s\\n' \"$PASSWORD\" | simulador %s --email ...)", command, strings.TrimPrefix(command, "simulador "))
		}
	}
	return nil
}

// maxPasswordInput bounds what is read for a password from a pipe.
const maxPasswordInput = 4 * auth.MaxPasswordLength

// readPassword reads a new password from standard input: at a terminal it
// asks for it twice without echo; from a pipe it reads one line.
func readPassword(stdin io.Reader, prompt io.Writer, command, email string) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		ask := func(label string) (string, error) {
			fmt.Fprint(prompt, label)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(prompt)
			return string(b), err
		}
		first, err := ask(fmt.Sprintf("New password for %s: ", email))
		if err != nil {
			return "", fmt.Errorf("%s: reading the password: %w", command, err)
		}
		again, err := ask("Repeat the password: ")
		if err != nil {
			return "", fmt.Errorf("%s: reading the password: %w", command, err)
		}
		if first != again {
			return "", fmt.Errorf("%s: the two passwords differ; nothing was changed", command)
		}
		return first, nil
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, maxPasswordInput)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: reading the password from standard input: %w", command, err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", fmt.Errorf("%s: no password on standard input (type it at the prompt, or pipe one line: "+
			"printf '%%s\\n' \"$PASSWORD\" | simulador %s --email ...)", command, command)
	}
	return line, nil
}
