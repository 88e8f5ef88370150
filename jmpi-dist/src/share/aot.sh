# Sourced by bin/jmpirun and bin/jmpi-java (bash): whether a class cache of lib/aot may be used.
#
#   jmpi_aot_ok LIB JAVA CACHE [JVM OPTION...]
#
# True when JMPI_AOT is not 0, LIB/aot/CACHE and LIB/aot/stamp exist, the stamp names JAVA's JDK (home and release
# version) and every jar it lists has the size and time it had when the cache was made, and no JVM option given (nor
# JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS) is one that makes the JVM refuse the cache: a cache the JVM refuses leaves it
# without even the JDK's own class data. org.jmpi.launcher.AotCache applies the same rules to the ranks jmpirun starts.
jmpi_aot_ok() {
  local lib="$1" java="$2" cache="$3" stamp key value jhome want have o
  shift 3
  stamp="$lib/aot/stamp"
  [ "${JMPI_AOT:-1}" != 0 ] && [ -r "$stamp" ] && [ -r "$lib/aot/$cache" ] || return 1
  # shellcheck disable=SC2086 # the environment's options are a list of words
  for o in "$@" ${JAVA_TOOL_OPTIONS:-} ${JDK_JAVA_OPTIONS:-}; do
    case "$o" in
      -XX:AOT*|-XX:SharedArchiveFile*|-Xshare*|-XX:+AutoCreateSharedArchive|-XX:ArchiveClassesAtExit*|-XX:+UseZGC|\
      -XX:-UseCompressed*|-XX:+UseCompactObjectHeaders|-XX:ObjectAlignmentInBytes*|--add-*|--patch-module*|\
      --limit-modules*|--upgrade-module-path*|-p|--module-path*|-Xmx[0-9]*[tT]|-XX:MaxHeapSize=*[tT]|\
      -javaagent:*|-agentlib:*|-agentpath:*|-XX:StartFlightRecording*|-XX:FlightRecorderOptions*) return 1 ;;
      -Xmx*[gG]|-XX:MaxHeapSize=*[gG])
        value="${o##*[x=]}"; value="${value%[gG]}"
        case "$value" in ''|*[!0-9]*) return 1 ;; esac
        [ "$value" -lt 32 ] || return 1 ;;
      -Xmx*[mM]|-XX:MaxHeapSize=*[mM])
        value="${o##*[x=]}"; value="${value%[mM]}"
        case "$value" in ''|*[!0-9]*) return 1 ;; esac
        [ "${#value}" -le 6 ] && [ "$value" -lt 32768 ] || return 1 ;;
      --enable-native-access=ALL-UNNAMED) ;;
      --enable-native-access*) return 1 ;;
    esac
  done
  jhome="$(readlink -f -- "$(command -v -- "$java")")" || return 1 # canonical, so its parents are too
  jhome="${jhome%/*}"
  jhome="${jhome%/*}"
  have="$(cd -- "$lib" && stat -c 'jar.%n=%s:%Y' -- *.jar 2>/dev/null)" || return 1
  have=$'\n'"$have"$'\n'
  while IFS='=' read -r key value; do
    case "$key" in
      java.home) [ "$value" = "$jhome" ] || return 1 ;;
      java.version) want=""
                    if [ -r "$jhome/release" ]; then
                      while IFS= read -r o || [ -n "$o" ]; do
                        case "$o" in JAVA_RUNTIME_VERSION=\"*\") want="${o#*=\"}"; want="${want%\"}"; break ;; esac
                      done < "$jhome/release"
                    fi
                    [ "$value" = "$want" ] || return 1 ;;
      jar.*) case "$have" in *$'\n'"$key=$value"$'\n'*) ;; *) return 1 ;; esac ;;
    esac
  done < "$stamp"
}
