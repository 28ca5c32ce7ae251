package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/lti"
)

// repeated collects a flag given several times (--deployment-id A
// --deployment-id B).
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

const ltiUsage = `lti platforms add --issuer URL --client-id ID --deployment-id ID [--deployment-id ID ...]
                  --auth-url URL --token-url URL --jwks-url URL [--frame-origin URL ...] [--allow-tutors]
lti platforms list
lti platforms remove --issuer URL --client-id ID
lti keys rotate`

func ltiCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "Usage:\n  simulador "+strings.ReplaceAll(ltiUsage, "\n", "\n  simulador "))
		return errors.New("lti: missing subcommand (platforms add|list|remove, keys rotate)")
	}
	sub := args[0] + " " + args[1]
	fs := flag.NewFlagSet("lti "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	issuer := fs.String("issuer", "", "the platform's issuer (Instructure-hosted Canvas: https://canvas.instructure.com)")
	clientID := fs.String("client-id", "", "the client id the platform gave the tool (Canvas: the developer key's id)")
	switch sub {
	case "platforms add":
		var deployments, origins repeated
		fs.Var(&deployments, "deployment-id", "an installation's deployment id (repeat for several)")
		fs.Var(&origins, "frame-origin", "an origin that shows the tool in a frame, e.g. https://utpl.instructure.com (repeatable)")
		authURL := fs.String("auth-url", "", "the platform's OIDC authorization endpoint")
		tokenURL := fs.String("token-url", "", "the platform's OAuth 2 token endpoint")
		jwksURL := fs.String("jwks-url", "", "the platform's public key set")
		allowTutors := fs.Bool("allow-tutors", false, "let instructors and teaching assistants sign in as tutors")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		if err := noArguments("lti platforms add", fs); err != nil {
			return err
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		p, err := a.lti.AddPlatform(ctx, lti.Registration{Issuer: *issuer, ClientID: *clientID, DeploymentIDs: deployments,
			AuthURL: *authURL, TokenURL: *tokenURL, JWKSURL: *jwksURL, FrameOrigins: origins, AllowTutors: *allowTutors})
		if err != nil {
			return fmt.Errorf("lti platforms add: %w", err)
		}
		fmt.Fprintf(stdout, "registered %s (client id %s, %d deployment(s)); tutors %s\n", p.Issuer, p.ClientID, len(p.DeploymentIDs),
			map[bool]string{true: "allowed", false: "not allowed: instructors' launches are refused"}[p.AllowTutors])
		return nil
	case "platforms list":
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		if err := noArguments("lti platforms list", fs); err != nil {
			return err
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		list, err := a.lti.Platforms(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(stdout, "no platforms registered")
		}
		for _, p := range list {
			fmt.Fprintf(stdout, "%s\tclient id %s\tdeployments %s\ttutors %v\n  auth %s\n  token %s\n  jwks %s\n", p.Issuer, p.ClientID,
				strings.Join(p.DeploymentIDs, ", "), p.AllowTutors, p.AuthURL, p.TokenURL, p.JWKSURL)
			if len(p.FrameOrigins) > 0 {
				fmt.Fprintf(stdout, "  frame origins %s\n", strings.Join(p.FrameOrigins, ", "))
			}
		}
		return nil
	case "platforms remove":
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		if err := noArguments("lti platforms remove", fs); err != nil {
			return err
		}
		if *issuer == "" || *clientID == "" {
			return errors.New("lti platforms remove: --issuer and --client-id are required")
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		if err := a.lti.RemovePlatform(ctx, *issuer, *clientID); err != nil {
			return fmt.Errorf("lti platforms remove: %w", err)
		}
		fmt.Fprintf(stdout, "removed %s (client id %s): its launches are refused from now on\n", *issuer, *clientID)
		return nil
	case "keys rotate":
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		if err := noArguments("lti keys rotate", fs); err != nil {
			return err
		}
		a, err := newApp(ctx, stderr, false)
		if err != nil {
			return err
		}
		defer a.Close()
		kid, err := a.lti.Keys().Rotate(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "new signing key %s; the previous key stays published at /lti/jwks for %s\n", kid, lti.RetiredKeyGrace.Round(time.Minute))
		return nil
	}
	fmt.Fprintln(stderr, "Usage:\n  simulador "+strings.ReplaceAll(ltiUsage, "\n", "\n  simulador "))
	return fmt.Errorf("lti: unknown subcommand %q", sub)
}
