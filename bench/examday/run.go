package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

// runExamDay runs a ramp or a storm and reports whether the budgets held.
func runExamDay(ctx context.Context, o options) (bool, error) {
	window := o.ramp
	if o.mode == "storm" {
		window = o.storm
	}
	bp := o.blueprint
	sum := &summary{Started: time.Now().UTC(), Mode: o.mode, Target: o.target, Media: o.media, SignIn: o.signin, Students: o.students,
		Tutors: o.tutors, Addresses: o.addresses, Window: window.String(), Command: strings.Join(os.Args, " "), Binary: o.bin,
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(),
		Blueprint: fmt.Sprintf("preparation %s, presentation %s, %d × (think %s, answer %s), closing %s; a %d-byte chunk every %s, notes every %s, tutors poll every %s",
			bp.preparation, bp.presentation, bp.questions, bp.think, bp.answer, bp.closing, o.chunkBytes, o.chunkEvery, o.notesEvery, o.pollEvery)}
	if o.url != "" && o.target != "cluster" {
		sum.Target = "url"
	}
	setupStart := time.Now()
	var iss *issuer
	if o.signin == "microsoft" {
		var err error
		if iss, err = startIssuer(ctx, o.issuerBin, o.tmp); err != nil {
			return false, err
		}
		defer iss.stop()
	}
	dep, fx, err := deploy(ctx, o, iss)
	if err != nil {
		return false, fmt.Errorf("setup: %w", err)
	}
	defer dep.stop()
	sum.URL = dep.base

	r := &runner{o: o, base: dep.base}
	r.rec = newRecorder(time.Now())
	if err := signInTutors(ctx, r, fx); err != nil {
		return false, fmt.Errorf("setup: %w", err)
	}
	if iss != nil {
		if err := prepareMicrosoft(ctx, o, iss, fx, dep.base); err != nil {
			return false, fmt.Errorf("setup: %w", err)
		}
	}
	sum.SetupSecs = time.Since(setupStart).Seconds()

	// The measured run.
	sum.LoadStart = benchkit.LoadAvg()
	var mons []*benchkit.Monitor
	for _, p := range dep.pids {
		m := benchkit.NewMonitor(p)
		m.Start(ctx)
		mons = append(mons, m)
	}
	if len(mons) == 0 {
		m := benchkit.NewMonitor(0)
		m.Start(ctx)
		mons = append(mons, m)
	}
	meter := benchkit.StartUsage(dep.pids...)
	stopProfile := startProfile(ctx, o, dep)
	origin := time.Now().Add(time.Second)
	r.rec = newRecorder(origin)
	logf("%s: %d students sign in within %s from %d address(es); %d tutors poll every %s", o.mode, o.students, window,
		o.addresses, o.tutors, o.pollEvery)

	stopTutors := make(chan struct{})
	var tutors sync.WaitGroup
	for i, t := range fx.tutors {
		offset := time.Until(origin) + time.Duration(i)*o.pollEvery/time.Duration(len(fx.tutors))
		rng := rand.New(rand.NewChaCha8([32]byte{0xff, byte(i)}))
		tutors.Go(func() { r.poll(ctx, t, offset, stopTutors, rng) })
	}
	stopFlood := make(chan struct{})
	floodDone := make(chan error, 1)
	if o.flood > 0 {
		logf("flood: %d clients send sign-ins for made-up accounts during the sign-in window; the owner signs in every %s", o.flood, ownerEvery)
		go func() {
			st, err := r.flood(ctx, fx.tutors[0], stopFlood)
			sum.Flood = st
			floodDone <- err
		}()
		go func() {
			sleepUntil(ctx, origin.Add(window+5*time.Second))
			close(stopFlood)
		}()
	} else {
		floodDone <- nil
	}
	var students sync.WaitGroup
	n := len(fx.students)
	for i, st := range fx.students {
		at := origin.Add(time.Duration(int64(window) * int64(i) / int64(n)))
		students.Go(func() { r.rehearse(ctx, st, at) })
	}
	progress := time.NewTicker(15 * time.Second)
	done := make(chan struct{})
	go func() { students.Wait(); close(done) }()
loop:
	for {
		select {
		case <-done:
			break loop
		case <-progress.C:
			r.mu.Lock()
			in := len(r.signIns)
			r.mu.Unlock()
			logf("%4.0fs: %d signed in, %d done (%d completed), %d problems, server RSS %.0f MiB, load %.2f",
				time.Since(origin).Seconds(), in, r.done.Load(), r.finished.Load(), r.rec.nerr, mons[0].Current(), benchkit.LoadAvg()[0])
		}
	}
	progress.Stop()
	if err := <-floodDone; err != nil {
		return false, err
	}
	close(stopTutors)
	tutors.Wait()
	stopProfile()
	sum.RunSecs = time.Since(origin).Seconds()
	sum.Usage = meter.Stop()
	sum.LoadEnd = benchkit.LoadAvg()

	// Memory: the largest instance's peak (one instance, or the worst of
	// a cluster's).
	var samples []benchkit.Sample
	for i, m := range mons {
		s := m.Stop(origin)
		if i == 0 {
			samples = s
		}
		if len(s) > 0 && s[0].RSSMiB > 0 {
			sum.RSSMeasured = true
			peak := 0.0
			for _, x := range s {
				peak = max(peak, x.RSSMiB)
			}
			if peak > sum.RSSPeakMiB {
				sum.RSSPeakMiB, sum.RSSStartMiB, sum.RSSEndMiB = peak, s[0].RSSMiB, s[len(s)-1].RSSMiB
			}
		}
	}
	sum.Samples = samples
	sum.LoadMean1, sum.LoadMax1 = benchkit.LoadStats(samples)

	r.mu.Lock()
	waveEnd := r.lastIn.Sub(origin)
	signIns := append([]time.Duration(nil), r.signIns...)
	r.mu.Unlock()
	for _, st := range fx.students {
		if st.completed {
			sum.Completed++
		}
	}
	sum.fill(r.rec, waveEnd, signIns)
	if dep.log != "" {
		sum.ServerLogLines, sum.ServerLogTail = serverLogProblems(dep.log)
	}
	sum.judge(o)
	sum.print(os.Stdout, o.budgets)
	if err := benchkit.WriteJSON(o.out, sum); err != nil {
		return false, err
	}
	logf("summary written to %s", o.out)
	return sum.Pass || !o.budgets, nil
}

// serverLogProblems counts the server's ERROR and WARN lines and keeps a
// few distinct ones.
func serverLogProblems(path string) (int, []string) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil
	}
	defer f.Close()
	n := 0
	seen := map[string]bool{}
	var sample []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "level=ERROR") && !strings.Contains(l, "level=WARN") {
			continue
		}
		n++
		key := l
		if i := strings.Index(l, "msg="); i >= 0 {
			key = l[i:min(len(l), i+60)]
		}
		if !seen[key] && len(sample) < 8 {
			seen[key] = true
			if len(l) > 400 {
				l = l[:400] + "…"
			}
			sample = append(sample, l)
		}
	}
	return n, sample
}

// startProfile fetches a CPU profile of the server from its debug
// listener (DEBUG_ADDR) for most of the run, when -cpuprofile is given.
func startProfile(ctx context.Context, o options, dep *deployment) func() {
	if o.profile == "" {
		return func() {}
	}
	addr := os.Getenv("EXAMDAY_DEBUG_URL")
	if addr == "" {
		logf("-cpuprofile: set EXAMDAY_DEBUG_URL to the server's debug listener (http://127.0.0.1:PORT) and -env DEBUG_ADDR=127.0.0.1:PORT")
		return func() {}
	}
	secs := int((o.ramp + o.blueprint.total()).Seconds())
	if o.mode == "storm" {
		secs = int((o.storm + o.blueprint.total()).Seconds())
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := http.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", addr, secs))
		if err != nil {
			logf("cpu profile: %v", err)
			return
		}
		defer res.Body.Close()
		f, err := os.Create(o.profile)
		if err != nil {
			logf("cpu profile: %v", err)
			return
		}
		defer f.Close()
		_, _ = io.Copy(f, res.Body)
		logf("server CPU profile written to %s (go tool pprof %s)", o.profile, o.profile)
	}()
	return func() {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
		case <-ctx.Done():
		}
	}
}

func (b blueprint) total() time.Duration {
	return b.preparation + b.presentation + time.Duration(b.questions)*(b.think+b.answer) + b.closing
}
