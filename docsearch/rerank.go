package docsearch

import "context"

// Reranker reorders the fused candidates of a search, best first. It may
// drop candidates but must not add any. The default does nothing; a
// cross-encoder or a model call plugs in here.
type Reranker interface {
	Rerank(ctx context.Context, query string, qt QueryType, results []Result) ([]Result, error)
}

// noRerank is the default Reranker: the fused order stands.
type noRerank struct{}

func (noRerank) Rerank(_ context.Context, _ string, _ QueryType, rs []Result) ([]Result, error) {
	return rs, nil
}
