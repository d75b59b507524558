package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// eachWindow bounds how many files Each holds at once (in flight or
// waiting for the ones before them) per worker: a slow file stalls the
// others after this many, so memory stays bounded on any repository.
const eachWindow = 32

// Each walks the root like All and calls fn with every extracted file in
// path order, from the calling goroutine, as soon as the file and those
// before it are done; it keeps at most a few dozen files per worker, not
// the whole repository, so a caller that writes each file out holds one
// at a time. fn must not keep f. It returns what All would skip, sorted
// by path. An error from fn stops the walk and is returned as is.
func (e *Extractor) Each(ctx context.Context, fn func(f *File) error) (skipped []Skipped, err error) {
	todo, skipped, err := e.plan(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	type result struct {
		f    *File
		skip *Skipped
	}
	slots := make([]chan result, len(todo))
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	sizes := fileSizes(e.root, todo)
	size := sum(sizes)
	window := make(chan struct{}, eachWindow*e.opt.Workers)
	next := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // dispatch in path order, at most window ahead of fn
		defer wg.Done()
		defer close(next)
		for i := range todo {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range min(e.opt.Workers, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f, err := e.file(ctx, todo[i])
				if err != nil {
					slots[i] <- result{skip: &Skipped{Path: todo[i], Reason: skipReason(err)}}
					continue
				}
				slots[i] <- result{f: f}
			}
		}()
	}
	defer func() { // stop the dispatcher and the workers first: fn may have failed
		cancel()
		wg.Wait()
	}()
	var done int
	var read int64
	for i := range todo {
		var r result
		select {
		case r = <-slots[i]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		slots[i] = nil
		<-window
		if ctx.Err() != nil { // a file cut short by cancellation is no skip
			return nil, ctx.Err()
		}
		done++
		read += sizes[i]
		if e.opt.Progress != nil {
			e.opt.Progress(Progress{Done: done, Total: len(todo), Read: read, Size: size})
		}
		if r.skip != nil {
			skipped = append(skipped, *r.skip)
			continue
		}
		if err := fn(r.f); err != nil {
			return nil, err
		}
	}
	sortSkipped(skipped)
	return skipped, nil
}

// plan walks the root and splits its files into those to extract and
// those All skips without reading them.
func (e *Extractor) plan(ctx context.Context) (todo []string, skipped []Skipped, err error) {
	paths, skipped, err := Walk(ctx, e.root, e.opt.Walk)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		switch l := LanguageOf(p, nil); {
		case UnknownByName(p):
			skipped = append(skipped, Skipped{Path: p, Reason: "unknown language"})
		case l != nil && !e.selected(l):
			skipped = append(skipped, Skipped{Path: p, Reason: "language " + l.Name + " not selected"})
		default:
			todo = append(todo, p)
		}
	}
	return todo, skipped, nil
}

// skipReason is the Skipped reason for an extraction error.
func skipReason(err error) string {
	var se *SkipError
	if errors.As(err, &se) {
		return se.Reason
	}
	return err.Error()
}

func sum(sizes []int64) (n int64) {
	for _, s := range sizes {
		n += s
	}
	return n
}

// fileSizes returns the size of each of paths (relative to root, or
// absolute), 0 for a file that cannot be stat'ed.
func fileSizes(root string, paths []string) []int64 {
	size := make([]int64, len(paths))
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, filepath.FromSlash(p))
		}
		if st, err := os.Stat(p); err == nil {
			size[i] = st.Size()
		}
	}
	return size
}
