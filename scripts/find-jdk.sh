# Sourced by ./build and ./mapsketch. Sets MAPSKETCH_JAVA_HOME to a JDK of version 25 or newer,
# looking in JAVA_HOME, the usual JDK folders and the PATH, or prints what to install and fails.

mapsketch_required_java=25

# Sets mapsketch_version to the feature version (25 for "25.0.3") of the JDK at $1, or fails if it is
# not a JDK. Reads the JDK's release file in the shell (the command runs this on every call, and a
# process started per candidate would be most of the launcher's own time).
mapsketch_jdk_version() {
    local home=$1 version="" line
    mapsketch_version=
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
    if [ -r "$home/release" ]; then
        while IFS= read -r line; do
            if [[ $line =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
                version=${BASH_REMATCH[1]}
                break
            fi
        done <"$home/release"
    fi
    if [ -z "$version" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9][0-9]*\).*/\1/p')
    fi
    [ -n "$version" ] && mapsketch_version=$version
}

mapsketch_find_jdk() {
    local candidate version best="" best_version=0 path_java
    local candidates=()
    [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
    for candidate in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* \
                     "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* \
                     /Library/Java/JavaVirtualMachines/*/Contents/Home; do
        [ -d "$candidate" ] && candidates+=("$candidate")
    done
    if path_java=$(command -v java 2>/dev/null); then
        path_java=$(readlink -f "$path_java")
        candidates+=("${path_java%/bin/java}")
    fi
    # JAVA_HOME wins when it is new enough; otherwise the newest JDK found.
    for candidate in "${candidates[@]}"; do
        mapsketch_jdk_version "$candidate" || continue
        version=$mapsketch_version
        if [ "$version" -ge "$mapsketch_required_java" ]; then
            if [ "$candidate" = "${JAVA_HOME:-}" ]; then
                best=$candidate
                break
            fi
            if [ "$version" -gt "$best_version" ]; then
                best=$candidate
                best_version=$version
            fi
        fi
    done
    if [ -z "$best" ]; then
        echo "mapsketch needs a JDK $mapsketch_required_java or newer and found none (looked in JAVA_HOME, /usr/lib/jvm, /usr/java, /opt, ~/.sdkman, ~/.jdks and the PATH): install one, for example Temurin $mapsketch_required_java from https://adoptium.net, or set JAVA_HOME to it." >&2
        return 1
    fi
    MAPSKETCH_JAVA_HOME=$best
}
