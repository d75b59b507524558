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

// debExtraCorpora are 48 more permissively licensed Python libraries of
// Debian 12 (24,975 pairs), tuned on only with -extra-python. Measured
// 2026-12-04 (doc.go): with them, vector search gained on CoSQA and on a
// known-item set of Python outside both lists, and hybrid CoSQA lost, so
// the default table is not tuned on them.
var debExtraCorpora = []corpus{
	debPython("python3-alembic", "1.8.1-2", "sha256-UhgTikPyFmQ6+uJOY6OqemjOPVHVJnbfWogOEjB4krU=", "MIT"),
	debPython("python3-arrow", "1.2.3-1", "sha256-xdMkALS4NXl+yidESclLic1kKSTAR6I3uATZRf33SNg=", "Apache-2.0"),
	debPython("python3-astropy", "5.2.1-2+deb12u1", "sha256-Xq9JAswVtnOlx2HGkXYN//AS7Sv9LAYfupXFeF/M5B0=", "BSD-3-Clause"),
	debPython("python3-attr", "22.2.0-1", "sha256-ahLqlqipCURamCl1J5+W17mh/5bJEu//OavI2SNyaUo=", "MIT"),
	debPython("python3-cffi", "1.15.1-5", "sha256-t885aCo8Tmfz8XnpMWuZUriJwPT2YPZ/VP2F6NxoAys=", "MIT"),
	debPython("python3-dateutil", "2.8.2-2", "sha256-WdaWKC/+r1Q5VFLgEnFUENxBTGuqpU1M2uVqx8IX6zE=", "BSD-3-Clause, Apache-2.0"),
	debPython("python3-dill", "0.3.6-1", "sha256-EFghgP1/MgdxaDeaSi0f+UhvwH28sJcvUITO4AmEmxo=", "BSD-3-Clause"),
	debPython("python3-docker", "5.0.3-1", "sha256-GHBGSpQp8v07TtxHwCkt57OYcmdemGU2PQH0P/fXLAw=", "Apache-2.0"),
	debPython("python3-emcee", "3.1.4-1", "sha256-iIuLIaI201EUbm3PgTRNOEXfHs4oq3m5U9y5lyjxrr8=", "MIT"),
	debPython("python3-falcon", "3.1.1-1+b1", "sha256-hs2O4TBdUTzfgiVqerwQdLBpMTmUL/pMvjmntWpgCkA=", "Apache-2.0"),
	debPython("python3-feedparser", "6.0.10-1", "sha256-5wTOAh1IhQCYs20SIKl3WxmhhyS7NShcATy6wSLglag=", "BSD-2-Clause"),
	debPython("python3-future", "0.18.2-6", "sha256-g56pF6NjVhNF1oIjtuH+nSW6L8NrwEn+ZY8+gfoZobM=", "MIT"),
	debPython("python3-geopandas", "0.12.2-1", "sha256-YrlseJZPtWmsm6F+ZvVzcMYHiAMlVR4l61Td/mquF4s=", "BSD-3-Clause"),
	debPython("python3-git", "3.1.30-1+deb12u3", "sha256-Y7PrJIPpRJ6iGfyBmdCvSeXdCWUOdpANzTTaxtcY/C0=", "BSD-3-Clause"),
	debPython("python3-gitdb", "4.0.9-2", "sha256-wa+7C3rjRxyn0LIyT0TCQJdO06N9R3cnLSe4jT2BxHM=", "BSD-3-Clause"),
	debPython("python3-html5lib", "1.1-3", "sha256-TYb4DGMhnqVu4C+sADQXjufZ8C/QWSo6hnoTQcRrxrM=", "MIT"),
	debPython("python3-httpx", "0.23.3-1", "sha256-DfUuMZvBHnfSuf9rQIJPSvQWnKDsYT7lQfZYkyItZkU=", "BSD-3-Clause"),
	debPython("python3-invoke", "2.0.0-1", "sha256-IgyjjtOFGqoSF7KOrB+WXXKcJeV1WJEtW0uLT1MjIiI=", "BSD-2-Clause"),
	debPython("python3-jedi", "0.18.2-1", "sha256-I0aBoNnu14yhR5NjH2+zAehgMKfFlC4JhwEm8YhS+tY=", "MIT"),
	debPython("python3-jupyter-client", "7.4.9-2", "sha256-nV6q4Num6hbxs2K8Aydyh5pBsDPGgB2RiIDpIbNtjo4=", "BSD-3-Clause"),
	debPython("python3-lmfit", "1.1.0-1", "sha256-HxhjifYUFYJyCzRL6RR2e5mnWq6Y1GMZDpAkBXa6C1A=", "MIT"),
	debPython("python3-mako", "1.2.4+ds-1", "sha256-ALMT5KVFsV1ckxIQtmTzQQ2vfEfy+bbB1EYZVlpBK3o=", "MIT"),
	debPython("python3-markdown", "3.4.1-2+deb12u1", "sha256-f5jpdc8Mxda2PR6nbx4fLIjfkdhz6sWO74vImiWiXZM=", "BSD-3-Clause"),
	debPython("python3-marshmallow", "3.18.0-1", "sha256-tyYhmclIDzbhYWEaN86zkFm+S/ESZPJ/QtnWRA9nI4g=", "MIT"),
	debPython("python3-mypy", "1.0.1-1", "sha256-pDXkDwYdBjehfBZB1nuw6Q0qzTVW+DvVOat2fqV9L3w=", "MIT"),
	debPython("python3-nbconvert", "6.5.3-3", "sha256-3I18Y5gMtwDDZzjJipuGmQPY4z6xubnynmDTkcoPKlk=", "BSD-3-Clause"),
	debPython("python3-nbformat", "5.5.0-1", "sha256-mjmQhAEzGFQ317ro8jxXV/svPqgu3BR82ia0eHYs1yY=", "BSD-3-Clause"),
	debPython("python3-numba", "0.56.4+dfsg-2", "sha256-h0u4akgjnSIHqhxcbNaCvbpr0XpHeoXFf7+EbqO/mZk=", "BSD-2-Clause"),
	debPython("python3-parso", "0.8.3-1", "sha256-7E2VD6n3jkW90/ZLfWd417GcB6E6LE21FfkrhAFSo9Q=", "MIT"),
	debPython("python3-peewee", "3.14.10+dfsg-1+b3", "sha256-Ki68F6MeU7ZfCASBjuLUiGTqmT1M1/yk47fI0RHu1Yw=", "MIT"),
	debPython("python3-pluggy", "1.0.0+repack-1", "sha256-e9qIJDdS/vf9FPJWrpG/Ob3Npo+D3HJtsdbZuLOVeJk=", "MIT"),
	debPython("python3-ply", "3.11-5", "sha256-hJ2MJueQmtov82wtuubGBXGVuOSg2wPJy6240OR/I8E=", "BSD-3-Clause"),
	debPython("python3-prompt-toolkit", "3.0.36-2", "sha256-53yKRumECdxSp907T0wAElHeP5XCgGDbvaYj5HSEkNQ=", "BSD-3-Clause"),
	debPython("python3-pycparser", "2.21-1", "sha256-dbJL6JhAEAktNvKeV5KucCXajLN0/ToRAvt8vKTfhIc=", "BSD-3-Clause"),
	debPython("python3-pydicom", "2.3.1-1", "sha256-/AC30qhcE2/dxEMNRR0Gn22LkxOO0lIwEWRnViCLAoc=", "MIT"),
	debPython("python3-pymysql", "1.0.2-2+deb12u1", "sha256-9HLp+ZO7zPigBOb01OosDP43wxQSVuWT4feKO53WWYk=", "MIT"),
	debPython("python3-pyqtgraph", "0.13.1-4", "sha256-fhMijwNn3F38Hz7SLjlcazhrBtjyrBElxrSz374EWLI=", "MIT"),
	debPython("python3-pytest", "7.2.1-2", "sha256-vF32frnqGL7d2V6qof/Hv//BcW0wceb0Bb0i9qBBFBY=", "MIT"),
	debPython("python3-reportlab", "3.6.12-1+deb12u1", "sha256-eqUsOU6HmtSxUzOrO96lAcQTeOTN0/5h/p5GBImqqoo=", "BSD-3-Clause (ReportLab)"),
	debPython("python3-setuptools", "66.1.1-1+deb12u2", "sha256-lvk0uNvkNnxM+eTHQKpchfmprIh1oWVWyGd/s0LHg48=", "MIT"),
	debPython("python3-simplejson", "3.18.3-1", "sha256-nCTrxz9C/C/6n0g7B4sqw16+U8D5tzTrKBmP/gqn+/g=", "MIT"),
	debPython("python3-sphinx-gallery", "0.10.1-3", "sha256-AJhLI9NXDNEo1w93mx5OMu3x4Oe4zb+rkyHExndSMd8=", "BSD-3-Clause"),
	debPython("python3-sunpy", "4.1.2-1+deb12u1", "sha256-0cogXkXe+DZT9JkSkPGrJsR0nEEGThFTn8RaLwhnhZE=", "BSD-2-Clause"),
	debPython("python3-traitlets", "5.5.0-1", "sha256-6hnXtm9EvUvhjNeEruKOAFOhS9cfMZ59lI4RTUCxZvI=", "BSD-3-Clause"),
	debPython("python3-twisted", "22.4.0-4+deb12u1", "sha256-2BlN98m4pSTOfTUPy0xqc0QQoscB8r+owNPwGGT1H2o=", "MIT"),
	debPython("python3-tz", "2022.7.1-4", "sha256-sWXTDvFx+UJsSWkARJuF0pDUxtLeUOHD9K3CtVtv1TQ=", "MIT"),
	debPython("python3-webob", "1:1.8.6-3", "sha256-3A59JB1fhtd0EyqSUiuA+clus9vqwpg4mHPY39WeoKg=", "MIT"),
	debPython("python3-yaml", "6.0-3+b2", "sha256-jQ2wswmSmP4Dm5TkxSpph3mKkNI7gN46wTw8t1z2IqI=", "MIT"),
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
