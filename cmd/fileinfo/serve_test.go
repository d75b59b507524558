package main

import (
	"strings"
	"testing"
)

func TestListenAddr(t *testing.T) {
	for _, tc := range []struct {
		addr, token, want, err string
	}{
		{":8080", "", "127.0.0.1:8080", ""},
		{"127.0.0.1:0", "", "127.0.0.1:0", ""},
		{"localhost:9", "", "localhost:9", ""},
		{"[::1]:9", "", "[::1]:9", ""},
		{"0.0.0.0:8080", "", "", "FILEINFO_TOKEN"},
		{"192.168.1.5:80", "", "", "--token"},
		{"0.0.0.0:8080", "tok", "0.0.0.0:8080", ""},
		{"8080", "", "", "host:port"},
	} {
		got, err := listenAddr(tc.addr, tc.token)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("listenAddr(%q, %q) = %q, %v; want an error saying %q", tc.addr, tc.token, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("listenAddr(%q, %q) = %q, %v; want %q", tc.addr, tc.token, got, err, tc.want)
		}
	}
}

func TestServeRefusesBadFlags(t *testing.T) {
	var out, errb strings.Builder
	if code := run(t.Context(), []string{"serve", "--http", "0.0.0.0:1"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "token") {
		t.Errorf("serve --http 0.0.0.0:1 without a token: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := run(t.Context(), []string{"serve", "--root", "/does/not/exist"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no such file") {
		t.Errorf("serve --root missing: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := run(t.Context(), []string{"serve", "--root", t.TempDir(), "--allow-root", "/does/not/exist"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "allowed root /does/not/exist") {
		t.Errorf("serve --allow-root missing: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := run(t.Context(), []string{"serve", "--log-level", "loud"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "log-level") {
		t.Errorf("serve --log-level loud: exit %d, %s", code, errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("serve wrote to stdout: %q", out.String())
	}
}
