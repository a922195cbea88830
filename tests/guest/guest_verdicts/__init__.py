"""The guest tier's verdicts, made on the host from the guest's raw output
(tests/guest/guest_tier.py is the command line).

The guest (tests/guest/guest-checks.sh, nv-checks.sh) only runs steps and
sends sections, "@@BEGIN <name> [rc=<status> secs=<s>]" ... "@@END
<name>", with "@@REQ"/"@@GOT" lines for its requests to the host agent;
the igt and cost profiles' guests report their one check themselves
("@@RESULT").  Every verdict here is the one the guest scripts made in shell before, with the
same texts; nv-pcounter-probe's PCOUNTER checks are made here from the
register reads and writes and the record buffer bytes it reports
(nv_pcounter.py), with the texts it printed before.

    log.py          the data channel's sections, Verdicts, the helpers
                    every profile shares (shell's results, PCI checks)
    intel.py        the intel profile up to the summary's first part
    intel_irq.py    its interrupt checks, snapshot and drills
    nv.py           the nv profile: PCI, the probe's runs, its exit
    nv_pcounter.py  the probe's readings replayed, PCOUNTER's checks
    report.py       TAP, results.txt, summary.txt
    oa_cost.py      make bench's OA cost lines
    host_cost.py    make bench's cost profile: QEMU's CPU time per piece

Standard library only (the base system's /usr/bin/python3).
"""
