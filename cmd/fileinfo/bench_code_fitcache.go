package main

import (
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/fileinfo/fileinfo/docsearch"
)

// `bench code --learn --fit --fit-cache FILE` keeps the candidates the
// fit reads in FILE: collecting them indexes every repository of the
// data sets and runs every query, minutes that a second fit of the same
// build need not spend again. The file names the features and the data
// sets it was made for; one made for others is refused, not read.

// fitCache is the file's content.
type fitCache struct {
	Features []string // docsearch.CodeFeatureNames when written
	Sets     []string // the data sets' names, in order
	Queries  []fitCacheQuery
}

// fitCacheQuery is a fitQuery with its fields exported for gob.
type fitCacheQuery struct {
	Set, Repo int
	Base      []float64
	F         [][]float64
	Rel       []bool
	File      []string
	Files     []string
	NRel      int
}

// readFitCache returns the queries of the cache at path, or ok false
// when there is none; a cache made for other features or data sets is
// an error.
func readFitCache(path string, sets []string) (qs []fitQuery, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var c fitCache
	if err := gob.NewDecoder(f).Decode(&c); err != nil {
		return nil, false, fmt.Errorf("fit cache %s: %w", path, err)
	}
	if !slices.Equal(c.Features, docsearch.CodeFeatureNames[:]) || !slices.Equal(c.Sets, sets) {
		return nil, false, fmt.Errorf("fit cache %s: made for features %v and data sets %v; remove it to collect again", path, c.Features, c.Sets)
	}
	for _, q := range c.Queries {
		if len(q.Base) != len(q.F) || len(q.Base) != len(q.Rel) || len(q.Base) != len(q.File) || q.Set < 0 || q.Set >= len(sets) || q.Repo < 0 {
			return nil, false, fmt.Errorf("fit cache %s: a query's candidates disagree in length or name no data set", path)
		}
		for _, f := range q.F {
			if len(f) != len(c.Features) {
				return nil, false, fmt.Errorf("fit cache %s: a candidate has %d features, not %d", path, len(f), len(c.Features))
			}
		}
		fq := fitQuery{set: q.Set, repo: q.Repo, base: q.Base, f: q.F, rel: q.Rel, file: q.File, files: map[string]bool{}, nrel: q.NRel}
		for _, p := range q.Files {
			fq.files[p] = true
		}
		qs = append(qs, fq)
	}
	return qs, true, nil
}

// writeFitCache writes qs to path, through a temporary file renamed
// into place.
func writeFitCache(path string, sets []string, qs []fitQuery) error {
	c := fitCache{Features: docsearch.CodeFeatureNames[:], Sets: sets}
	for _, q := range qs {
		c.Queries = append(c.Queries, fitCacheQuery{Set: q.set, Repo: q.repo, Base: q.base, F: q.f, Rel: q.rel, File: q.file,
			Files: slices.Sorted(maps.Keys(q.files)), NRel: q.nrel})
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(&c); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
