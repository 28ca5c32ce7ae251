// Command simulador is the oral exam simulator: the web server and the
// terminal commands that administer it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
)

const usage = `Usage: simulador <command> [flags]

Commands:
  serve                         start the web server (default)
  users create --email E --role tutor|estudiante [--name "Nombre Apellido"]
                                the password is read from standard input
                                (asked twice at a terminal; one line from a pipe)
  users set-password --email E  a new password from standard input; ends the
                                user's sessions
  users set-role --email E --role tutor|estudiante
  users reset-mfa --email E     turn off a tutor's two-step verification (a
                                lost phone); they sign in with the password
  users import-firebase FILE --salt-separator B64 --rounds N --mem-cost N [--hash-key-file F] [--dry-run]
                                import a Firebase Authentication export; users keep
                                their passwords (the hash key from standard input)
  adopt --from firestore://PROJECT_ID [--dry-run]
                                make the earlier Firebase app's project ready for
                                this server, in place (docs/moving-in.md)
  cases import FILE             import cases (.json or .csv exchange format)
  cases export [--degree NAME]  print the case bank as JSON
  analyze [--case FILE] [--duration SECONDS] < transcript.txt
                                measure a transcript (citations, protocol, fillers...) as JSON
  migrate-data --from URL --to URL [--from-media URL] [--to-media URL] [--overwrite] [--dry-run]
                                copy every record and recording to another store
                                (SQLite, PostgreSQL, Firestore; directory, bucket) and
                                verify both sides; stop the servers first
                                (simulador migrate-data -h explains the URLs)
  lti platforms add --issuer URL --client-id ID --deployment-id ID [--deployment-id ID ...]
                    --auth-url URL --token-url URL --jwks-url URL [--frame-origin URL ...] [--allow-tutors]
                                register a learning platform (LTI 1.3; see docs/lti.md)
  lti platforms list            the registered platforms
  lti platforms remove --issuer URL --client-id ID
  lti keys rotate               a new signing key for the tool (the old one stays
                                published for an hour)

Configuration comes from the environment (see README.md): ADDR, PORT,
DATA_DIR, DATABASE_URL, PUBLIC_URL, MS_TENANT_ID, MS_CLIENT_ID, ...
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// cli runs one command line and returns the process's exit code: 0 on
// success, 2 for a usage error the flag package already explained, 1 for
// any other error, printed on stderr.
func cli(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := run(ctx, args, stdin, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 2
	}
	fmt.Fprintln(stderr, "error:", message(err))
	return 1
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return serve(ctx, nil, stderr)
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stderr)
	case "users":
		return usersCommand(cliActor(ctx), args[1:], stdin, stdout, stderr)
	case "cases":
		return casesCommand(cliActor(ctx), args[1:], stdout, stderr)
	case "analyze":
		return analyzeCommand(args[1:], stdin, stdout, stderr)
	case "adopt":
		return adoptCommand(ctx, args[1:], stdout, stderr)
	case "migrate-data":
		return migrateCommand(ctx, args[1:], stdout, stderr)
	case "lti":
		return ltiCommand(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// cliActor marks what a terminal command does, in the security events, as
// done from the terminal (by whoever has a shell on the server).
func cliActor(ctx context.Context) context.Context {
	return audit.WithActor(ctx, audit.Actor{Via: "cli"})
}

// noArguments refuses what a command's flags left over: a value with spaces
// that was not quoted (--name Ana Pérez) would otherwise be silently cut.
func noArguments(command string, fs *flag.FlagSet) error {
	if fs.NArg() == 0 {
		return nil
	}
	return fmt.Errorf("%s: unexpected argument %q (put values with spaces in quotes, e.g. --name \"Ana Pérez\")", command, fs.Arg(0))
}

// message shows a domain error's user-facing text instead of its code.
func message(err error) string {
	var ue *domain.UserError
	if errors.As(err, &ue) {
		return ue.Message
	}
	return err.Error()
}
