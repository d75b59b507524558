package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Python libraries as Debian 12 (bookworm) packages them: the npm registry
// holds little Python beyond the standard library, and Debian's archive is
// the other registry the development machines reach. A package is pinned
// by name, version and the SRI sha256 of its .deb (Debian's Packages index
// lists the same digest in hex), fetched with `apt-get download` and
// unpacked with `dpkg-deb --fsys-tarfile`, so the generator needs a Debian
// machine with bookworm in its apt sources; packages of architecture amd64
// need an amd64 one.
//
// The libraries are chosen for their documented Python (numerical,
// scientific, data, web-scraping, documentation and language tools) and
// their permissive licences; packages whose version carries a stable or
// security update (+deb12uN) are left out where possible, since the
// archive drops a superseded version, and with it the pin. Only the
// learned vectors are shipped, never their text.

// debPython returns the corpus of the Python modules of the Debian
// package name at version: its files under usr/lib/python3/dist-packages,
// test packages left out.
func debPython(name, version, integrity, license string) corpus {
	return corpus{
		source: source{pkg: name + "=" + version, integrity: integrity, license: license},
		deb:    true,
		keep: func(p string) bool {
			rest, ok := strings.CutPrefix(p, debPythonDir)
			return ok && path.Ext(p) == ".py" && !isTestPath(rest)
		},
	}
}

// debPythonDir is where Debian installs the modules of python3-* packages.
const debPythonDir = "usr/lib/python3/dist-packages/"

var debCorpora = []corpus{
	debPython("python3-numpy", "1:1.24.2-1+deb12u1", "sha256-ZMbhi9hfiBMo1wBxFUwti5P9beLgeFX4H61eSZaUrAM=", "BSD-3-Clause"),
	debPython("python3-scipy", "1.10.1-2", "sha256-dRdesYqp72QkxpBQp1EzX+aGwktlvBdz0HaadKIchp0=", "BSD-3-Clause"),
	debPython("python3-pandas", "1.5.3+dfsg-2", "sha256-TFMLNsEH3P3L8qK+9ACKRmexgzCEJZwMQO99Jrf+wKU=", "BSD-3-Clause"),
	debPython("python3-matplotlib", "3.6.3-1+b1", "sha256-n/9thGuU3fRU+XV++7yUMiBobhNH+K5gX8+Grwh79SU=", "the PSF-based matplotlib licence"),
	debPython("python3-sklearn", "1.2.1+dfsg-1", "sha256-ygxr5AHRSHHH6Tz92NH1YVldxl5uKtJQHVaK7n9+/Fg=", "BSD-3-Clause"),
	debPython("python3-skimage", "0.19.3-8", "sha256-co2Iw+NEDx83Et4IBdyDTSkkj/B+HuyMDz2gdgb3Uvk=", "BSD-3-Clause"),
	debPython("python3-statsmodels", "0.13.5+dfsg-7", "sha256-d0dLpUTI4Y55MmNe+atlq8G4cg+0cUZdKm3dXqgfCK0=", "BSD-3-Clause"),
	debPython("python3-dask", "2022.12.1+dfsg-2", "sha256-ydyiGXrYs5a0RktniKUDx4jXCVPvS+KV82EEDyDeSH0=", "BSD-3-Clause"),
	debPython("python3-sqlalchemy", "1.4.46+ds1-1", "sha256-FB8+1oC13pRMgq/5ALGutJCaXRfuDd09aX4lC192VGg=", "MIT"),
	debPython("python3-docutils", "0.19+dfsg-6", "sha256-ramoAZU3UmLFDcCs8hoApRFm/uP8lvbKbSChonhouiw=", "public domain, BSD-2-Clause"),
	debPython("python3-sphinx", "5.3.0-4", "sha256-kmsJsctM6ToR3H3YPgDfdwSWvTCOR4M+VTdh+FQpCVM=", "BSD-2-Clause"),
	debPython("python3-nltk", "3.8-1", "sha256-iyfubNrCqtxUwTIsvPf0wNClke9NJeq4sX+EN0qSesc=", "Apache-2.0"),
	debPython("python3-babel", "2.10.3-1", "sha256-VJJUFBAXIjttOkj/ftefBsxgj3rmJVGg35M2CHRLQ5M=", "BSD-3-Clause"),
	debPython("python3-openpyxl", "3.0.9-1", "sha256-RoSQ/D9D8zjvwDryWYeVbKVBuGY3jYSCoz1j2YjljOk=", "MIT"),
	debPython("python3-biopython", "1.80+dfsg-4+b1", "sha256-WIg1bv+C1f1TW6S6/58T3K3XIX/eVunh+AXCU5ZpI9g=", "Biopython License Agreement or BSD-3-Clause"),
	debPython("python3-scrapy", "2.8.0-2", "sha256-Jdx/ZFaB9GC9igYwcpoJR2svPPZfFTziABGvcq2VMPw=", "BSD-3-Clause"),
	debPython("python3-mpmath", "1.2.1-2", "sha256-LCGbY8urEbJyCO9BQcEWy7Ai3BI26EmB+ttGBC884jU=", "BSD-3-Clause"),
	debPython("python3-boltons", "21.0.0-2", "sha256-4Zmz67ZRecWL03TesvOIiqtAlnpIk+J43n/UgwV69n8=", "BSD-3-Clause"),
	debPython("python3-bs4", "4.11.2-2", "sha256-29StHUBsDLtcE1KbSSJgHfmLvA63nmwDK+VDxDNR5fY=", "MIT"),
	debPython("python3-celery", "5.2.6-5", "sha256-URtD+NP7jd2oUuh/dOsSLPyVi9DV7ee4FlsA72Dr3sw=", "BSD-3-Clause"),
	debPython("python3-docx", "0.8.11+dfsg1-5", "sha256-k4d12Kj27qr5JPTeI1c3bOXiFm8jTRr4a8pSh940Hso=", "MIT"),
	debPython("python3-gevent", "22.10.2-3", "sha256-nm6flqjyticxkEfK6LFlBCX8yW/4PQKEPeRmw2k43ww=", "MIT"),
	debPython("python3-h5py", "3.7.0-8", "sha256-KMf50hGC9ngxsRGiYGomfRZBg5ifSnEUAW54n3jVpb0=", "BSD-3-Clause"),
	debPython("python3-kombu", "5.2.4-1", "sha256-m5R984MxNvEdTBkjKQcfMIY7fwufi8Zgx635la8J3b8=", "BSD-3-Clause"),
	debPython("python3-mne", "1.3.0+dfsg-1", "sha256-YkitTpPr/oqd2K0LZVdyiSxmcchbJi/owBLa7d8FKXc=", "BSD-3-Clause"),
	debPython("python3-more-itertools", "8.10.0-2", "sha256-v/gX169xD/yHEj9r1YHVtQGGpeoAZdPSwgRFzkmpNBI=", "MIT"),
	debPython("python3-nibabel", "5.0.0-2", "sha256-JRcyzIurv5CfBn7GJo26+i7bd7HCleejT8o+dW38hEQ=", "MIT"),
	debPython("python3-numexpr", "2.8.4-1+b2", "sha256-8YjjisT9MbMnVV4fjc9PJrCT+MwexKZwlNt74CVxxZI=", "MIT"),
	debPython("python3-patsy", "0.5.3-1", "sha256-EWH63iMeRsCh12g0t4DiavjFsRrs3gu0DzvCyZJAL78=", "BSD-2-Clause"),
	debPython("python3-pexpect", "4.8.0-4", "sha256-uY373JaRZTCW58uDL9zzNZC3YVRsLUMTtd3gWwUxA/Y=", "ISC"),
	debPython("python3-pint", "0.19.2-1", "sha256-N20z6g6LhXxC+5UfmWzTRiIjUlfI8qY0YCnp9DseVSM=", "BSD-3-Clause"),
	debPython("python3-psutil", "5.9.4-1+b1", "sha256-F3SEvN+zwGREScMsbwtiJE5R1YYNgB3X81vAhIoN2dw=", "BSD-3-Clause"),
	debPython("python3-pyparsing", "3.0.9-1", "sha256-iR3PEqEl3K265xZq2OnR/SKm8b9DHKS86fgQ2jDc1HI=", "MIT"),
	debPython("python3-pyproj", "3.4.1-1+b1", "sha256-UzzaSasrjLDYLm4f/r1PHPjy81+HlNh6O9WEM7PfpGg=", "MIT"),
	debPython("python3-pywt", "1.1.1-3+b2", "sha256-ErGtuO3ug48jwwuiQ+iuS/sYFZ5ZUf6wFwZ7Fut80J0=", "MIT"),
	debPython("python3-redis", "4.3.4-3", "sha256-Ugn7eeZ60UbZR91f3HicqadmK7cW/BjdpARxogRfShU=", "MIT"),
	debPython("python3-seaborn", "0.12.2-1", "sha256-umaWYDrGQbHwe9GtQOLRaN5zZu/4RiAywzvJkqknTAw=", "BSD-3-Clause"),
	debPython("python3-shapely", "1.8.5-2+b1", "sha256-cplOmLu2jBYQ5sNQNMf4EhtyR+uwWx7fHQWR0qVY0t0=", "BSD-3-Clause"),
	debPython("python3-sortedcontainers", "2.4.0-2", "sha256-sA/SLk/VDYukREJgf8PHNxhggrFmSNOZWy5PymQvU+E=", "Apache-2.0"),
	debPython("python3-tables", "3.7.0-5", "sha256-Q8S84KEoaPs8mtFtG0dWVP4tCqnYhl0+UZiAG1qOdyk=", "BSD-3-Clause"),
	debPython("python3-toolz", "0.12.0-1", "sha256-DgoH7FgRCl0HqE8zRuYkts2SMw4H/IMW0/imupWA9y8=", "BSD-3-Clause"),
	debPython("python3-xarray", "2023.01.0-1.1", "sha256-tFwO/dNsGreE35dQlzVXTMVDVmxmrHbjHEnxEhnv06o=", "Apache-2.0"),
	debPython("python3-xlsxwriter", "3.0.2-2", "sha256-CPaCtXb2YXhe4fscVRBG5VwZXC5Fs2VIGEKCiFsvmj0=", "BSD-2-Clause"),
}

// debFileGlob is the pattern of the file name `apt-get download` gives
// the package pkg (name=version) for any architecture: the version's epoch
// colon is written %3a.
func debFileGlob(pkg string) string {
	name, version, _ := strings.Cut(pkg, "=")
	return name + "_" + strings.ReplaceAll(version, ":", "%3a") + "_*.deb"
}

// fetchDeb returns the files of the pinned Debian package pkg, read from
// dir when it holds the .deb or fetched by `apt-get download`, after
// checking the .deb against its integrity.
func fetchDeb(pkg, integrity, dir string) (map[string][]byte, error) {
	data, err := debFile(pkg, dir)
	if err != nil {
		return nil, err
	}
	return unpackPinned(pkg, integrity, data, undeb)
}

// debFile returns the bytes of pkg's .deb, from dir or downloaded.
func debFile(pkg, dir string) ([]byte, error) {
	if dir != "" {
		if m, _ := filepath.Glob(filepath.Join(dir, debFileGlob(pkg))); len(m) == 1 {
			return os.ReadFile(m[0])
		}
	}
	tmp, err := os.MkdirTemp("", "embed-gen-deb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("apt-get", "download", pkg)
	cmd.Dir = tmp
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("apt-get download %s: %w", pkg, err)
	}
	m, _ := filepath.Glob(filepath.Join(tmp, debFileGlob(pkg)))
	if len(m) != 1 {
		return nil, fmt.Errorf("apt-get download %s: want one %s, found %d", pkg, debFileGlob(pkg), len(m))
	}
	return os.ReadFile(m[0])
}

// undeb returns the regular files of a .deb's data archive by path,
// without the leading "./".
func undeb(data []byte) (map[string][]byte, error) {
	cmd := exec.Command("dpkg-deb", "--fsys-tarfile", "/dev/stdin")
	cmd.Stdin = bytes.NewReader(data)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("dpkg-deb --fsys-tarfile: %w", err)
	}
	return tarFiles(bytes.NewReader(out), "./")
}
