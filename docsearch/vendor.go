package docsearch

// ScopeVendor is the built-in scope of vendored source code: code a
// repository holds a copy of (Go's vendor/ directory, a third_party/
// tree with its own licence or manifest), put in by a caller that
// extracted it as for the code scope (CodeFile.Vendor). Its documents
// are code documents in every way but their scope: a search of the code
// scope leaves them out, a search of every scope or of vendor finds
// them, ranked under the project's own code for the same match
// (vendorDemote).
const ScopeVendor = "vendor"

// vendorDemote multiplies the fused score of a result of the vendor
// scope: the project's own code, which a user changes, comes first; the
// library it vendors is still found, under it. It is auxDemote's
// factor, which vendored paths in the code scope got before vendored
// code had its own scope.
const vendorDemote = auxDemote

// isCodeScope reports whether scope holds code documents (see CodeText):
// the code scope or the vendor scope.
func isCodeScope(scope string) bool { return scope == ScopeCode || scope == ScopeVendor }

// codeScope is the scope f's documents go in.
func codeScope(f CodeFile) string {
	if f.Vendor {
		return ScopeVendor
	}
	return ScopeCode
}
