package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// profiles holds the --cpuprofile, --memprofile and --trace flags of
// extract, callgraph, index and search, which measure a run on a big
// repository (docs/bigrepos.md).
type profiles struct {
	cpu, mem, trace *string
}

func profileFlags(fs *flag.FlagSet) profiles {
	return profiles{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE`"),
		mem: fs.String("memprofile", "", "write a heap profile, taken at the heap's largest point, to `FILE`"),
		// An execution trace shows how many goroutines run at once over
		// the run, which a CPU profile cannot: a stretch where one core
		// works and the other waits (`go tool trace`).
		trace: fs.String("trace", "", "write an execution trace of the run to `FILE`"),
	}
}

// start starts the CPU profile and the trace; the returned stop ends them. heap writes
// the heap profile if one was asked for: callers call it where the heap
// is largest (after a GC, so it shows what is live then).
func (p profiles) start() (stop func(), err error) {
	stop = func() {}
	if *p.cpu != "" {
		if stop, err = startCPUProfile(*p.cpu); err != nil {
			return nil, fmt.Errorf("cpuprofile %s: %w", *p.cpu, err)
		}
	}
	if p.trace != nil && *p.trace != "" {
		stopTrace, err := startTrace(*p.trace)
		if err != nil {
			stop()
			return nil, fmt.Errorf("trace %s: %w", *p.trace, err)
		}
		stopCPU := stop
		stop = func() { stopTrace(); stopCPU() }
	}
	return stop, nil
}

// startTrace starts writing an execution trace to path; the returned
// function stops it and closes the file.
func startTrace(path string) (stop func(), err error) {
	return startRecording(path, trace.Start, trace.Stop)
}

// startCPUProfile starts writing a CPU profile to path; the returned
// function stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	return startRecording(path, pprof.StartCPUProfile, pprof.StopCPUProfile)
}

// startRecording creates path and has start write a recording (a trace,
// a profile) into it; the returned function calls end and closes the
// file.
func startRecording(path string, start func(io.Writer) error, end func()) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		end()
		f.Close()
	}, nil
}

// heap writes the heap profile, if --memprofile was given.
func (p profiles) heap() error {
	if p.mem == nil || *p.mem == "" {
		return nil
	}
	f, err := os.Create(*p.mem)
	if err != nil {
		return fmt.Errorf("memprofile %s: %w", *p.mem, err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("memprofile %s: %w", *p.mem, err)
	}
	return f.Close()
}
