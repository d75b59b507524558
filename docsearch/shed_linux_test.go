//go:build linux

package docsearch

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestShedPagesReleases checks that shedPages takes a read mapping's
// pages out of the resident set, and that the mapping reads as before.
func TestShedPagesReleases(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Type == 0x01021994 { // TMPFS_MAGIC
		t.Skip("the temp dir is tmpfs, whose pages reclaim cannot take without swap")
	}
	p := filepath.Join(dir, "f")
	want := make([]byte, 8<<20)
	for i := range want {
		want[i] = byte(i * 7)
	}
	if err := os.WriteFile(p, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	data, release, mapped, err := mapFile(f)
	if err != nil || !mapped {
		t.Fatalf("mapFile: mapped %v, %v", mapped, err)
	}
	defer release()
	sum := 0
	for i := 0; i < len(data); i += 4096 {
		sum += int(data[i+1]) // fault every page in
	}
	before := residentKB(t, data)
	shedPages(data)
	after := residentKB(t, data)
	if before < 4<<10 || after > before/4 {
		t.Errorf("resident %d KB after reading the mapping, %d KB after shedPages; want most of it given back", before, after)
	}
	if string(data) != string(want) {
		t.Error("the mapping reads differently after shedPages")
	}
	if sum == 0 {
		t.Error("read nothing")
	}
}

// residentKB returns the Rss of the mapping that starts at b.
func residentKB(t *testing.T, b []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(&b[0])))
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && len(fields[1]) == 4 { // a mapping's first line
			in = strings.HasPrefix(fields[0], start)
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "Rss:" {
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatalf("smaps: %q", sc.Text())
			}
			return n
		}
	}
	t.Fatalf("no mapping at %s in /proc/self/smaps", start)
	return 0
}
