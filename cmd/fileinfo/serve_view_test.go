package main

import (
	"strings"
	"testing"
)

func TestViewAddr(t *testing.T) {
	for _, tc := range []struct {
		addr, token, want, err string
	}{
		{"", "", "", ""},
		{":0", "", "127.0.0.1:0", ""},
		{":8080", "", "127.0.0.1:8080", ""},
		{"localhost:8080", "", "localhost:8080", ""},
		{"[::1]:9", "", "[::1]:9", ""},
		{"0.0.0.0:8080", "", "", "beyond this machine"},
		{"0.0.0.0:8080", "tok", "0.0.0.0:8080", ""},
		{"8080", "", "", "want host:port"},
	} {
		got, err := viewAddr(tc.addr, tc.token)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("viewAddr(%q, %q) = %q, %v; want %q, error with %q", tc.addr, tc.token, got, err, tc.want, tc.err)
		}
	}
}
