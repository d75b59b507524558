package main

import (
	"path"
	"strings"
)

// jsExtraCorpora are more documented JavaScript and TypeScript packages,
// tuned on with -extra-js: the default corpora hold 10,382 npm pairs
// against 40,735 Debian Python ones, and most of the npm ones are
// declarations. None of these is a package of a code-search benchmark
// (docs/bench/code, codegen, codetests) or of the JavaScript known-item
// set (async, moment, express, axios, luxon, semver, ...).
var jsExtraCorpora = []corpus{
	{
		source: source{
			pkg:       "ramda@0.30.1",
			integrity: "sha512-tEF5I22zJnuclswcZMc8bDIrwRHRzf+NqVEmqg50ShAZMP7MWeR/RGDthfM/p+BlqvF2fXAzpn8i+SJcYD3alw==",
			license:   "MIT",
		},
		keep: func(name string) bool { return path.Dir(name) == "src" && path.Ext(name) == ".js" },
	},
	{
		source: source{
			pkg:       "crypto-js@4.2.0",
			integrity: "sha512-KALDyEYgpY+Rlob/iriUtjV6d5Eq+Y191A5g4UqLAi8CyGP9N1+FdVbkc1SxKc2r4YAYqG8JzO2KGL+AizD70Q==",
			license:   "MIT",
		},
		keep: func(name string) bool {
			return !strings.Contains(name, "/") && path.Ext(name) == ".js" && !strings.HasSuffix(name, ".min.js")
		},
	},
	{
		source: source{
			pkg:       "node-forge@1.3.1",
			integrity: "sha512-dPEtOeMvF9VMcYV/1Wb8CPoVAXtp6MKMlcbAt4ddqmGqUJ6fQZFXkNZNkNlfevtNkGtaSoXf/vNNNSvgrdXwtA==",
			license:   "BSD-3-Clause OR GPL-2.0",
		},
		keep: func(name string) bool { return path.Dir(name) == "lib" && path.Ext(name) == ".js" },
	},

	{
		source: source{
			pkg:       "webpack@5.97.1",
			integrity: "sha512-EksG6gFY3L1eFMROS/7Wzgrii5mBAFe4rIr3r2BTfo7bcc+DWwFZ4OJ/miOuHJO/A85HwyI4eQ0F6IKXesO7Fg==",
			license:   "MIT",
		},
		keep: func(name string) bool { return strings.HasPrefix(name, "lib/") && path.Ext(name) == ".js" },
	},
	{
		source: source{
			pkg:       "three@0.170.0",
			integrity: "sha512-FQK+LEpYc0fBD+J8g6oSEyyNzjp+Q7Ks1C568WWaoMRLW+TkNNWmenWeGgJjV105Gd+p/2ql1ZcjYvNiPZBhuQ==",
			license:   "MIT",
		},
		keep: func(name string) bool { return strings.HasPrefix(name, "src/") && path.Ext(name) == ".js" },
	},
	{
		source: source{
			pkg:       "handlebars@4.7.8",
			integrity: "sha512-vafaFqs8MZkRrSX7sFVUdo3ap/eNiLnb4IakshzvP56X5Nr1iGKAIqdX6tMlm6HcNRIkr6AxO5jFEoJzzpT8aQ==",
			license:   "MIT",
		},
		keep: func(name string) bool { return strings.HasPrefix(name, "lib/") && path.Ext(name) == ".js" },
	},

	{
		source: source{
			pkg:       "immutable@5.0.3",
			integrity: "sha512-P8IdPQHq3lA1xVeBRi5VPqUm5HDgKnx0Ru51wZz5mjxHr5n3RWhjIpOFU7ybkUxfB+5IToy+OLaHYDBIWsv+uw==",
			license:   "MIT",
		},
		keep: func(name string) bool { return name == "dist/immutable.d.ts" },
	},
	{
		source: source{
			pkg:       "@types/jquery@3.5.32",
			integrity: "sha512-b9Xbf4CkMqS02YH8zACqN1xzdxc3cO735Qe5AbSUFmyOiaWAbcpqh9Wna+Uk0vgACvoQHpWDg2rGdHkYPLmCiQ==",
			license:   "MIT",
		},
		keep: func(name string) bool { return path.Dir(name) == "jquery" && strings.HasSuffix(name, ".d.ts") },
	},
	{
		source: source{
			pkg:       "@types/react@18.3.12",
			integrity: "sha512-D2wOSq/d6Agt28q7rSI3jhU7G6aiuzljDGZ2hTZHIkrTLUI+AF3WMeKkEZ9nN2fkBAlcktT6vcZjDFiIhMYEQw==",
			license:   "MIT",
		},
		keep: func(name string) bool { return name == "react/index.d.ts" },
	},
	{
		source: source{
			pkg:       "@types/d3-array@3.2.1",
			integrity: "sha512-Y2Jn2idRrLzUfAKV2LyRImR+y4oa2AntrgID95SHJxuMUrkNXmanDSed71sRNZysveJVt1hLLemQZIady0FpEg==",
			license:   "MIT",
		},
		keep: func(name string) bool { return name == "d3-array/index.d.ts" },
	},
}
