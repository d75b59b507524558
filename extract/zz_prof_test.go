package extract

import (
	"context"
	"os"
	"testing"
)

func TestProfPatho(t *testing.T) {
	dir := os.Getenv("PATHO")
	if dir == "" {
		t.Skip()
	}
	e, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fs, sk, err := e.All(context.Background())
	t.Log(len(fs), sk, err)
}
