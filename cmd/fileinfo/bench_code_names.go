package main

import (
	"fmt"
	"strings"
)

// minNameQuery is the shortest name `bench code --names` asks for: a
// shorter one ("New", "get") names many functions of a repository alike.
const minNameQuery = 4

// nameQueries turns a data set into identifier queries (`bench code
// --names`): each function its qrels.tsv judges is asked for by its own
// name, the last part of its qualified name, and answered by itself
// alone. A function named by its place ("<callback of …>"), a name
// shorter than minNameQuery, and a second function of the same name in a
// repository are left out, so every query has one answer. The queries
// keep the order of the judgements; their ids are "name-" and a number.
func nameQueries(dir string) ([]codeQuery, map[string][]span, error) {
	rels, err := readCodeQrels(dir)
	if err != nil {
		return nil, nil, err
	}
	var queries []codeQuery
	qrels := map[string][]span{}
	asked := map[[2]string]bool{}
	for _, r := range rels {
		name := r.symbol[strings.LastIndexAny(r.symbol, ".:")+1:]
		key := [2]string{r.repo, name}
		if strings.HasPrefix(name, "<") || strings.HasSuffix(name, ">") || len(name) < minNameQuery || asked[key] {
			continue
		}
		asked[key] = true
		id := fmt.Sprintf("name-%03d", len(queries)+1)
		queries = append(queries, codeQuery{ID: id, Repo: r.repo, Text: name})
		qrels[id] = []span{r.span}
	}
	return queries, qrels, nil
}
