package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// progressBar draws "[=====>    ] 12/40 path" on a terminal, redrawing the
// line; on anything else it draws nothing. Text written through it (logs)
// clears the bar first.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	drawn bool
}

func newProgressBar(w io.Writer) *progressBar {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressBar{w: w, tty: tty}
}

const barWidth = 30

// update draws done of total, working on path.
func (b *progressBar) update(done, total int, path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.tty || total == 0 {
		return
	}
	fill := barWidth * done / total
	bar := strings.Repeat("=", fill)
	if fill < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-fill-1)
	}
	if len(path) > 50 {
		path = "…" + path[len(path)-49:]
	}
	fmt.Fprintf(b.w, "\r\033[K[%s] %d/%d %s", bar, done, total, path)
	b.drawn = true
}

// Write writes p below the bar.
func (b *progressBar) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
		b.drawn = false
	}
	return b.w.Write(p)
}

// finish ends the bar's line.
func (b *progressBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}
