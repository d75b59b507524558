// Package shop keeps an inventory.
package shop

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	str "strings"
)

// ErrNotFound is returned for unknown items.
var ErrNotFound = errors.New("not found")

// Item is one thing on a shelf.
type Item struct {
	Name  string
	Price int
}

// Store holds items by name.
//
// It is safe for concurrent use.
type Store[K comparable] struct {
	fmt.Stringer
	*Index
	items map[K]Item
}

// Finder finds items.
type Finder interface {
	// Find returns the item called name.
	Find(ctx context.Context, name string) (Item, error)
	fmt.Stringer
}

// Price is an amount in cents.
type Price = int

type handler func(Item) error

// NewStore returns an empty store.
func NewStore[K comparable]() *Store[K] {
	return &Store[K]{items: make(map[K]Item)}
}

// Find implements Finder.
func (s *Store[K]) Find(ctx context.Context, name K) (Item, error) {
	it, ok := s.items[name]
	if !ok {
		return Item{}, fmt.Errorf("find %v: %w", name, ErrNotFound)
	}
	s.Index.touch(str.ToLower(fmt.Sprint(name)))
	return it, nil
}

/*
Each calls f for every item,
stopping at the first error.
*/
func (s Store[K]) Each(f handler) error {
	walk := func(it Item) error {
		return f(it) // a call inside a closure belongs to Each
	}
	for _, it := range s.items {
		if err := walk(it); err != nil {
			return err
		}
	}
	return nil
}

func (x *Index) touch(key string) {
	x.keys = append(x.keys, key)
	sortKeys[string](x.keys)
}

func sortKeys[T any](keys []T) {}

// Index is declared after its methods.
type Index struct{ keys []string }

func init() {
	_ = NewStore[string]()
}
