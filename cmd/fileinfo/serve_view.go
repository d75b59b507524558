package main

import (
	"fmt"
	"net"
)

// viewAddr checks and completes serve's --view address as listenAddr does
// --http's: a bare ":port" binds loopback, and another address than a
// loopback one needs a token. An empty addr stays empty (no view until
// open_view asks for one).
func viewAddr(addr, token string) (string, error) {
	if addr == "" {
		return "", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--view %q: want host:port or :port: %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopback(host) && token == "" {
		return "", fmt.Errorf("--view %s would show the workspace beyond this machine; set a token with --token or $%s, or bind a loopback address such as 127.0.0.1:%s", addr, tokenEnv, port)
	}
	return net.JoinHostPort(host, port), nil
}
