# make bench's OA cost, on the host (scripts/bench-guest.sh), from the runs
# in oa-cost.txt that guest_tier.py oa-cost made of the guest's sections,
# one line each: ROUND MODE WORK PROBE HOST-CPU-S HOST-WALL-S HOST-OTHER-S
# ("-" or "?" when missing); MODE is none, slow or fast, WORK idle, cpu
# (PROBE: getppid() calls per second) or nop (PROBE: the batches' seconds;
# see guest-checks.sh).  Variables: n (rounds), b (batches per
# nop run), e and e1 (the fast and slow streams' exponents), cpu (the host
# agent's answer status).  POSIX awk.
#
# Other processes on the host slow QEMU down and inflate its CPU time
# (fewer or shared cores), so a figure compares two runs of a round only
# when the rest of the host took less than half a CPU second per second in
# both ("quiet"); with no quiet round, every round counts and the figure
# says "busy host".
#
# Prints one line for the summary, groups separated by " | " (no ";",
# which separates the summary's items), each figure the median of the
# rounds' with the lowest and highest in brackets and the number of rounds
# counted:
# - with the guest idle, QEMU's host CPU seconds per host second in each
#   mode, and what the fast stream adds to none;
# - for the getppid() loop, the ratios of the run time of the same calls
#   (the inverse of the rates) and of QEMU's host CPU seconds per second,
#   fast / none and fast / slow;
# - the same for the batches' run time and host CPU time;
# - the host CPU seconds per host second the rest of the host took, over
#   every run.

function num(x) {
    return x != "" && x != "?" && x != "-"
}

# Sorted insertion of x into r[1..k]; returns k + 1.
function put(r, k, x, j) {
    r[++k] = x
    for (j = k; j > 1 && r[j - 1] > r[j]; j--) {
        x = r[j]
        r[j] = r[j - 1]
        r[j - 1] = x
    }
    return k
}

function stat(r, k, f) {
    if (k == 0) {
        return "?"
    }
    return sprintf(f " (" f "-" f ")",
                   k % 2 ? r[(k + 1) / 2] : (r[k / 2] + r[k / 2 + 1]) / 2,
                   r[1], r[k])
}

# Whether round I's runs of MODE and BASE (when given) under WORK count:
# both quiet, or any when no round is (all = 1).
function counts(i, m, m0, wk, all) {
    return all || (q[i, m, wk] && (m0 == "" || q[i, m0, wk]))
}

# stat() with the rounds counted: "[K quiet]" or "[K, busy host]".
function stat_n(r, k, f, all) {
    return stat(r, k, f) (k ? " [" k (all ? ", busy host]" : " quiet]") : "")
}

# ratio(V, WORK, A, B): the rounds' V[A] / V[B].
function ratio(v, wk, a, m0, all, i, k, r) {
    k = 0
    for (i = 1; i <= n; i++) {
        if (counts(i, a, m0, wk, all) && num(v[i, a, wk]) &&
            num(v[i, m0, wk]) && v[i, m0, wk] > 0) {
            k = put(r, k, v[i, a, wk] / v[i, m0, wk])
        }
    }
    return k || all ? stat_n(r, k, "%.3f", all) : ratio(v, wk, a, m0, 1)
}

# rate(V, MODE, WORK, BASE): the rounds' V per host second, less BASE's
# when BASE is given.
function rate(v, m, wk, m0, all, i, k, r, x) {
    k = 0
    for (i = 1; i <= n; i++) {
        if (!counts(i, m, m0, wk, all) || !num(v[i, m, wk]) ||
            !(w[i, m, wk] > 0)) {
            continue
        }
        x = v[i, m, wk] / w[i, m, wk]
        if (m0 != "") {
            if (!num(v[i, m0, wk]) || !(w[i, m0, wk] > 0)) {
                continue
            }
            x -= v[i, m0, wk] / w[i, m0, wk]
        }
        k = put(r, k, x)
    }
    return k || all ? stat_n(r, k, "%.2f", all) : rate(v, m, wk, m0, 1)
}

{
    t[$1, $2, $3] = $4
    c[$1, $2, $3] = $5
    w[$1, $2, $3] = $6
    cps[$1, $2, $3] = num($5) && $6 > 0 ? $5 / $6 : "?"
    q[$1, $2, $3] = num($7) && $6 > 0 && $7 / $6 < 0.5
    if (num($7) && $6 > 0) {
        nrest = put(rest, nrest, $7 / $6)
    }
}

# pair(V, WORK, INV): "e=7/none R, e=7/e=23 R" of V, or of 1 / V when
# INV (a rate, for the run time of the same calls).
function pair(v, wk, inv) {
    if (inv) {
        return "e=" e "/none " ratio(v, wk, "none", "fast") ", e=" e "/e=" e1 \
            " " ratio(v, wk, "slow", "fast")
    }
    return "e=" e "/none " ratio(v, wk, "fast", "none") ", e=" e "/e=" e1 \
        " " ratio(v, wk, "fast", "slow")
}

END {
    printf "%d rounds", n
    printf " | idle guest, QEMU host CPU s per s: no stream %s, e=%s %s, e=%s %s, e=%s adds %s",
        rate(c, "none", "idle"), e1, rate(c, "slow", "idle"),
        e, rate(c, "fast", "idle"), e, rate(c, "fast", "idle", "none")
    printf " | getppid() loop, run time of the same calls: %s", pair(t, "cpu", 1)
    printf " | getppid() loop, QEMU host CPU s per s: %s", pair(cps, "cpu")
    printf " | %d batches, run time: %s", b, pair(t, "nop")
    printf " | %d batches, QEMU host CPU s: %s", b, pair(c, "nop")
    printf " | rest of the host: %s CPU s per s", stat(rest, nrest, "%.2f")
    if (cpu != "ok") {
        printf " (no host figures: host agent %s)", cpu
    }
    printf "\n"
}
