# Sourced by ./mapsketch. Starts the mapsketch CLI on a JDK 25, quietly and fast:
#   mapsketch_run_cli JAVA_HOME MODULE_PATH AOT_CACHE TERMINAL ARGS...
# runs the command on the module path with the Vector API module and native access for the memory
# module (its file locks and block reservations are system calls), and returns its exit status.
#
# Quiet: every JVM that resolves jdk.incubator.vector prints "WARNING: Using incubator modules:
# jdk.incubator.vector" as the first line of its standard error, before any code of the command runs,
# and no JVM option turns it off. The command's standard error goes through a filter that drops that
# one line, if it is the first, and passes everything else on as it comes. The JVM and the filter are
# one pipeline that the launcher waits for, so that every line is written when it returns; a signal
# from the terminal (Ctrl-C) or to the process group (timeout, service managers) reaches the JVM.
#
# Fast: AOT_CACHE is an ahead-of-time cache (JDK 25, JEP 483 and 514: classes loaded and linked, and
# method profiles, of a training run of `mapsketch demo` and single verbs), made on the first run after each build and
# used while it is newer than every jar of MODULE_PATH. A missing, stale or unreadable cache only
# costs time: it is made again, or the command runs without it, and the JVM's reports about it (which
# it would print on standard output) are turned off. A command line of a few keys (mapsketch_kernels)
# runs without the Vector API module, whose batch kernels pay only for many keys: its JVM then has the
# module graph and linked classes archived in its own cache (mapsketch_cache_path), which a JVM that
# resolves an incubator module cannot have.

mapsketch_incubator_notice='WARNING: Using incubator modules: jdk.incubator.vector'

# The JVM options of the command and of the cache's training run, which must be the same (the serial
# collector starts fastest, and the command's data is off the heap), for KERNELS vector (the default)
# or scalar. A JVM that resolves an incubator module, by --add-modules or by a module's requires,
# archives neither the module graph nor linked classes in the cache: that costs start-up, and the
# Vector API cannot be had otherwise; the scalar options leave the module out.
mapsketch_cli_options() {
    local terminal=$1 kernels=${2:-vector}
    mapsketch_options=()
    [ "$kernels" = scalar ] || mapsketch_options=(--add-modules jdk.incubator.vector)
    mapsketch_options+=(--enable-native-access=io.mapsketch.memory
        -XX:+UseSerialGC -Xlog:aot*=off -Xlog:cds*=off "-Dmapsketch.terminal=$terminal")
}

# Sets mapsketch_kernels_chosen to scalar for a command line that the CLI answers with the scalar kernels
# (FastVerbs.fewKeys: bf exists, cf exists, bf add, cms query or hll add with a file and 1 to 64 ITEM
# arguments, none an option), else to vector. (The launcher's functions set variables rather than print:
# a command substitution starts a process, and the launcher runs on every command.)
mapsketch_kernels() {
    local arg
    mapsketch_kernels_chosen=vector
    case "${1:-} ${2:-}" in
        "bf exists" | "cf exists" | "bf add" | "cms query" | "hll add") ;;
        *) return 0 ;;
    esac
    if [ $# -lt 4 ] || [ $# -gt 67 ]; then
        return 0
    fi
    for arg in "${@:3}"; do
        case $arg in
            -* | @*) return 0 ;;
        esac
    done
    mapsketch_kernels_chosen=scalar
}

# Sets mapsketch_cache to the cache of KERNELS beside BASE.aot: BASE.aot itself for vector,
# BASE-scalar.aot for scalar.
mapsketch_cache_path() {
    local base=$1 kernels=$2
    if [ "$kernels" = scalar ]; then
        mapsketch_cache=$base-scalar.aot
    else
        mapsketch_cache=$base.aot
    fi
}

# Copies standard input to standard output, less a first line that is the incubator notice.
mapsketch_drop_incubator_notice() {
    local first
    if IFS= read -r first; then
        [ "$first" = "$mapsketch_incubator_notice" ] || printf '%s\n' "$first"
    elif [ -n "$first" ]; then
        printf '%s' "$first"
    fi
    exec cat
}

# Succeeds if AOT_CACHE was made (or its making failed, leaving it empty) after every jar of
# MODULE_PATH (jars and folders of jars) was built.
mapsketch_aot_cache_current() {
    local module_path=$1 cache=$2 entry jar
    [ -e "$cache" ] || return 1
    local IFS=:
    for entry in $module_path; do
        if [ -d "$entry" ]; then
            for jar in "$entry"/*.jar; do
                [ ! "$jar" -nt "$cache" ] || return 1
            done
        elif [ "$entry" -nt "$cache" ]; then
            return 1
        fi
    done
}

# Makes AOT_CACHE from a training run (io.mapsketch.cli.StartupTraining: `mapsketch demo`, then the verbs
# scripts call one at a time and a pipe, on files of its own) with the options of KERNELS (default
# vector); says nothing, and leaves the cache empty (not to be tried again until the next build), if
# that fails.
mapsketch_make_aot_cache() {
    local java_home=$1 module_path=$2 cache=$3 kernels=${4:-vector}
    local partial="$cache.$$.partial"
    mapsketch_cli_options false "$kernels"
    if "$java_home/bin/java" "-XX:AOTCacheOutput=$partial" "${mapsketch_options[@]}" \
            --module-path "$module_path" --module io.mapsketch.cli/io.mapsketch.cli.StartupTraining \
            </dev/null >/dev/null 2>&1 && [ -s "$partial" ]; then
        mv -f "$partial" "$cache"
    else
        rm -f "$partial" "$partial.config"
        : >"$cache" 2>/dev/null || true
    fi
}

# Runs the CLI with the options of its command line's kernels (mapsketch_kernels); AOT_CACHE should be
# the cache of those kernels (mapsketch_cache_path), or the JVM runs without it. Without the Vector API
# module the JVM prints no notice, and its standard error goes straight to the caller's.
mapsketch_run_cli() {
    local java_home=$1 module_path=$2 cache=$3 terminal=$4
    shift 4
    mapsketch_kernels "$@"
    mapsketch_cli_options "$terminal" "$mapsketch_kernels_chosen"
    if [ -n "$cache" ] && [ -s "$cache" ] && mapsketch_aot_cache_current "$module_path" "$cache"; then
        mapsketch_options+=("-XX:AOTCache=$cache")
    fi
    if [ "$mapsketch_kernels_chosen" = scalar ]; then
        "$java_home/bin/java" "${mapsketch_options[@]}" --module-path "$module_path" \
            --module io.mapsketch.cli/io.mapsketch.cli.Main "$@"
        return
    fi
    # Standard error through the filter (the pipe), standard output to the caller's (descriptor 3).
    { "$java_home/bin/java" "${mapsketch_options[@]}" --module-path "$module_path" \
        --module io.mapsketch.cli/io.mapsketch.cli.Main "$@" 2>&1 1>&3 3>&- \
        | mapsketch_drop_incubator_notice 1>&2; } 3>&1
    local status=${PIPESTATUS[0]}
    return $status
}
