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
	peak            *heapPeak // --memprofile's, from start
}

func profileFlags(fs *flag.FlagSet) *profiles {
	return &profiles{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE`"),
		mem: fs.String("memprofile", "", "write to `FILE` a heap profile of the largest live heap of the run (watched every 0.1 s)"),
		// An execution trace shows how many goroutines run at once over
		// the run, which a CPU profile cannot: a stretch where one core
		// works and the other waits (`go tool trace`).
		trace: fs.String("trace", "", "write an execution trace of the run to `FILE`"),
	}
}

// start starts the CPU profile, the trace and the heap's watch (the heap
// profile is kept of the largest live heap: heapPeak); the returned stop
// ends them. heap marks a point the caller knows to matter.
func (p *profiles) start() (stop func(), err error) {
	var stops []func() // of what started, in order; stopped in reverse
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if *p.mem != "" {
		// Written once now, so that a path that cannot be written fails
		// the command before its work.
		if err := writeHeapProfile(*p.mem); err != nil {
			return nil, err
		}
		p.peak = watchHeap(*p.mem)
		stops = append(stops, p.peak.close)
	}
	for _, r := range []struct {
		flag, path string
		start      func(string) (func(), error)
	}{{"cpuprofile", *p.cpu, startCPUProfile}, {"trace", *p.trace, startTrace}} {
		if r.path == "" {
			continue
		}
		end, err := r.start(r.path)
		if err != nil {
			stop()
			return nil, fmt.Errorf("%s %s: %w", r.flag, r.path, err)
		}
		stops = append(stops, end)
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

// heap marks a point where the heap may be at its largest (the work
// done, its result still held), if --memprofile was given: the profile
// is written again if the heap, after a collection, is the largest yet.
// It returns the first write of the profile that failed.
func (p *profiles) heap() error {
	if p.peak == nil {
		return nil
	}
	return p.peak.mark()
}

// heapNow writes the heap profile of what is live now to path.
func heapNow(path string) error {
	runtime.GC()
	return writeHeapProfile(path)
}
