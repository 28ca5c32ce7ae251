package main

import (
	"context"
	"errors"
)

func runCompare(ctx context.Context, o options) (bool, error) { return false, errors.New("not yet") }

func serveBareEcho(addr string) error { return errors.New("not yet") }
