package callgraph

import (
	"os"
	"testing"
)

func TestZZOracleDir(t *testing.T) {
	root := os.Getenv("ZZ_ROOT")
	if root == "" {
		t.Skip()
	}
	node := tsOracleNode(t)
	extracted := extractDir(t, root)
	files := tsSourceFiles(extracted)
	sites := runTSOracle(t, node, root, files)
	a := compareTS(Build(extracted), files, sites)
	t.Logf("%s: %v", root, a)
	logTS(t, a, 12)
}
