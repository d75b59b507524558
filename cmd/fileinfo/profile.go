package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles holds the --cpuprofile and --memprofile flags of extract and
// callgraph, which measure a run on a big repository (docs/bigrepos.md).
type profiles struct {
	cpu, mem *string
}

func profileFlags(fs *flag.FlagSet) profiles {
	return profiles{
		cpu: fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE`"),
		mem: fs.String("memprofile", "", "write a heap profile, taken at the heap's largest point, to `FILE`"),
	}
}

// start starts the CPU profile; the returned stop ends it. heap writes
// the heap profile if one was asked for: callers call it where the heap
// is largest (after a GC, so it shows what is live then).
func (p profiles) start() (stop func(), err error) {
	stop = func() {}
	if *p.cpu != "" {
		if stop, err = startCPUProfile(*p.cpu); err != nil {
			return nil, fmt.Errorf("cpuprofile %s: %w", *p.cpu, err)
		}
	}
	return stop, nil
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
