# shellcheck shell=bash
# Sourced by hack/envtest.sh and hack/cluster/build.sh: how to build
# Kubernetes commands from the Go module proxy. The caller defines log and
# die, and runs with GOWORK=off.

K8S_MODULE=k8s.io/kubernetes

# k8s_module DIR MODPATH VERSION CMD...: a fresh throwaway module in DIR that
# can build k8s.io/kubernetes/cmd/CMD at vVERSION. k8s.io/kubernetes requires
# its staging modules (k8s.io/api, k8s.io/apiserver, ...) as v0.0.0 and
# replaces them with ./staging/...; a replace in a dependency is ignored, so
# the wrapper points each at its published v0.<minor>.<patch>.
k8s_module() {
  local dir=$1 modpath=$2 version=$3 dl err gomod staging_version go_line c m
  shift 3
  log "fetching $K8S_MODULE v$version (Go module proxy)"
  if ! dl=$(go mod download -json "$K8S_MODULE@v$version" 2>&1); then
    err=$(sed -n 's/^[[:space:]]*"Error": "\(.*\)",*$/\1/p' <<<"$dl")
    die "could not download $K8S_MODULE v$version from the Go module proxy: ${err:-$dl}"
  fi
  gomod=$(sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p' <<<"$dl")
  [[ -f $gomod ]] || die "no go.mod for $K8S_MODULE v$version in: $dl"
  staging_version="v0.${version#*.}"
  local staging=()
  mapfile -t staging < <(go mod edit -print "$gomod" | awk '
    /^require[[:space:]]*\(/ { blk = "req"; next }
    /^replace[[:space:]]*\(/ { blk = "rep"; next }
    /^\)/ { blk = ""; next }
    blk == "req" && $2 == "v0.0.0" { req[$1] = 1 }
    blk == "rep" && $2 == "=>" && $3 ~ /^\.\/staging\// { rep[$1] = 1 }
    END { for (m in req) if (m in rep) print m }' | sort)
  ((${#staging[@]} > 0)) || die "found no staging modules in $K8S_MODULE's go.mod; has its layout changed?"
  go_line=$(go mod edit -print "$gomod" | awk '$1 == "go" { print $2; exit }')
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && go mod init "$modpath" >/dev/null 2>&1)
  local edits=(-go="$go_line" -require="$K8S_MODULE@v$version")
  for c in "$@"; do edits+=(-tool="$K8S_MODULE/cmd/$c"); done
  for m in "${staging[@]}"; do edits+=(-replace="$m=$m@$staging_version"); done
  (cd "$dir" && go mod edit "${edits[@]}") || die "go mod edit in $dir"
  log "resolving the dependencies of $* (go mod tidy; ${#staging[@]} staging modules -> $staging_version)"
  (cd "$dir" && go mod tidy >&2) || die "go mod tidy failed in $dir"
}

# k8s_version_ldflags VERSION: the version stamps Kubernetes' own build sets
# (hack/lib/version.sh upstream); without them the commands report
# v0.0.0-master.
k8s_version_ldflags() {
  local version=$1 minor p flags=""
  minor=${version#*.}
  minor=${minor%%.*}
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $p.gitVersion=v$version -X $p.gitMajor=${version%%.*} -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
  printf '%s' "$flags"
}
