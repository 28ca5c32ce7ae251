package benchkit

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// RSSMiB reads VmRSS of pid from /proc, in MiB; 0 when unknown.
func RSSMiB(pid int) float64 {
	if pid <= 0 {
		return 0
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// TotalRSSMiB is the sum of RSSMiB over pids.
func TotalRSSMiB(pids ...int) float64 {
	var sum float64
	for _, p := range pids {
		sum += RSSMiB(p)
	}
	return sum
}

// totalCPU is the sum of ProcessCPU over pids; -1 when any is unknown.
func totalCPU(pids []int) float64 {
	sum := 0.0
	for _, p := range pids {
		c := ProcessCPU(p)
		if c < 0 {
			return -1
		}
		sum += c
	}
	return sum
}

// ProcessCPU returns pid's user+system CPU seconds; -1 when unknown.
func ProcessCPU(pid int) float64 {
	if pid <= 0 {
		return -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are fields 14 and 15 of the whole line.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return -1
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return (u + k) / 100 // USER_HZ is 100 on Linux
}

// ToolCPU is this process's user+system CPU seconds.
func ToolCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// PressureTotal is the "some" stall time of resource (cpu, io, memory) in
// seconds since boot, from /proc/pressure; -1 when unavailable.
func PressureTotal(resource string) float64 {
	b, err := os.ReadFile("/proc/pressure/" + resource)
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	_, total, ok := strings.Cut(line, "total=")
	if !strings.HasPrefix(line, "some ") || !ok {
		return -1
	}
	us, err := strconv.ParseFloat(strings.TrimSpace(total), 64)
	if err != nil {
		return -1
	}
	return us / 1e6
}

// LoadAvg is the machine's 1, 5 and 15-minute load average.
func LoadAvg() [3]float64 {
	var l [3]float64
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	f := strings.Fields(string(b))
	for i := range min(3, len(f)) {
		l[i], _ = strconv.ParseFloat(f[i], 64)
	}
	return l
}

// Usage is what a process and the machine did over an interval: the
// process's CPU and the tool's own, in percent of one core, and the share
// of the time some task of the machine waited for a CPU or for I/O (other
// users of the machine included; -1 without /proc/pressure).
type Usage struct {
	ServerCPUPct   float64 `json:"serverCpuPercent"`
	ToolCPUPct     float64 `json:"toolCpuPercent"`
	CPUPressurePct float64 `json:"cpuPressureSomePercent"`
	IOPressurePct  float64 `json:"ioPressureSomePercent"`
}

// UsageMeter measures Usage from Start to Stop.
type UsageMeter struct {
	pids      []int
	at        time.Time
	cpu, tool float64
	cpuP, ioP float64
}

// StartUsage starts measuring the CPU of the processes pids (summed: a
// server and its database, say).
func StartUsage(pids ...int) *UsageMeter {
	m := &UsageMeter{pids: pids, at: time.Now(), tool: ToolCPU(), cpuP: PressureTotal("cpu"), ioP: PressureTotal("io")}
	m.cpu = m.processCPU()
	return m
}

func (m *UsageMeter) processCPU() float64 { return totalCPU(m.pids) }

// Stop returns the usage since StartUsage.
func (m *UsageMeter) Stop() Usage {
	secs := time.Since(m.at).Seconds()
	u := Usage{ServerCPUPct: -1, CPUPressurePct: -1, IOPressurePct: -1}
	if c := m.processCPU(); c >= 0 && m.cpu >= 0 && len(m.pids) > 0 {
		u.ServerCPUPct = 100 * (c - m.cpu) / secs
	}
	u.ToolCPUPct = 100 * (ToolCPU() - m.tool) / secs
	if p := PressureTotal("cpu"); p >= 0 && m.cpuP >= 0 {
		u.CPUPressurePct = 100 * (p - m.cpuP) / secs
	}
	if p := PressureTotal("io"); p >= 0 && m.ioP >= 0 {
		u.IOPressurePct = 100 * (p - m.ioP) / secs
	}
	return u
}

// Monitor samples a process's RSS and CPU and the load average every
// second.
type Monitor struct {
	pids    []int
	mu      sync.Mutex
	samples []Sample
	stopc   chan struct{}
	done    chan struct{}
	started bool
}

// Sample is one reading of a Monitor.
type Sample struct {
	At     time.Time `json:"-"`
	T      float64   `json:"t"` // seconds since the origin given to Samples
	RSSMiB float64   `json:"rssMiB,omitempty"`
	CPUPct float64   `json:"cpuPercent,omitempty"` // of one core, since the previous sample
	Load1  float64   `json:"load1"`
	cpu    float64
}

// NewMonitor returns a monitor of pids, their memory and CPU summed (none,
// or 0: the load average only).
func NewMonitor(pids ...int) *Monitor {
	return &Monitor{pids: pids, stopc: make(chan struct{}), done: make(chan struct{})}
}

// Start takes a first sample and samples every second until Stop or ctx ends.
func (m *Monitor) Start(ctx context.Context) {
	m.started = true
	m.take()
	go func() {
		defer close(m.done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-m.stopc:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				m.take()
			}
		}
	}()
}

func (m *Monitor) take() {
	s := Sample{At: time.Now(), RSSMiB: TotalRSSMiB(m.pids...), Load1: LoadAvg()[0], cpu: totalCPU(m.pids)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.samples); n > 0 {
		prev := m.samples[n-1]
		if dt := s.At.Sub(prev.At).Seconds(); dt > 0 && s.cpu >= 0 && prev.cpu >= 0 {
			s.CPUPct = 100 * (s.cpu - prev.cpu) / dt
		}
	}
	m.samples = append(m.samples, s)
}

// Current is the last RSS sampled.
func (m *Monitor) Current() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.samples) == 0 {
		return 0
	}
	return m.samples[len(m.samples)-1].RSSMiB
}

// Stop ends the sampling with a last sample and returns the samples, their
// times relative to origin.
func (m *Monitor) Stop(origin time.Time) []Sample {
	if m.started {
		close(m.stopc)
		<-m.done
	}
	m.take()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := slices.Clone(m.samples)
	for i := range out {
		out[i].T = out[i].At.Sub(origin).Seconds()
	}
	return out
}

// LoadStats summarises the 1-minute load average of samples.
func LoadStats(samples []Sample) (mean, peak float64) {
	if len(samples) == 0 {
		return 0, 0
	}
	for _, s := range samples {
		mean += s.Load1
		peak = max(peak, s.Load1)
	}
	return mean / float64(len(samples)), peak
}

// Latencies are quantiles of durations, in milliseconds.
type Latencies struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// Quantiles computes Latencies of ds (which it sorts).
func Quantiles(ds []time.Duration) Latencies {
	var l Latencies
	if len(ds) == 0 {
		return l
	}
	var total time.Duration
	for _, d := range ds {
		total += d
	}
	slices.Sort(ds)
	q := func(p float64) float64 { return Ms(ds[min(len(ds)-1, int(p*float64(len(ds))))]) }
	l.P50, l.P90, l.P95, l.P99, l.P999 = q(0.50), q(0.90), q(0.95), q(0.99), q(0.999)
	l.Max, l.Mean = Ms(ds[len(ds)-1]), Ms(total/time.Duration(len(ds)))
	return l
}

// Ms is d in milliseconds, to the microsecond.
func Ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
