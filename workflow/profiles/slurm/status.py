#!/usr/bin/env python3
"""The state of one Slurm job for Snakemake's --cluster-status: prints running, success or failed.

    status.py JOBID

sacct first (it knows every job once accounting has it), then scontrol (it knows a job the
controller still holds, e.g. one accounting has not recorded yet). Every state that is not
pending, running or completed is a failure, whatever follows its name: "CANCELLED by 0"
(scancel) as much as TIMEOUT, OUT_OF_MEMORY or NODE_FAIL. A job neither knows is failed, so
the engine retries it rather than waiting for it forever.
"""
import re
import subprocess
import sys
import time

RUNNING = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD",
           "RESIZING", "SUSPENDED", "STAGE_OUT", "SIGNALING", "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT"}


def run(cmd):
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def state(jobid):
    """The job's state word (COMPLETED, CANCELLED, ...), '' when neither sacct nor scontrol knows it,
    None when neither could be asked."""
    out = run(["sacct", "-n", "-P", "-X", "-j", jobid, "--format=JobIDRaw,State"])
    if out:
        for line in out.splitlines():
            raw, _, st = line.partition("|")
            if raw == jobid and st:
                return st.split()[0].rstrip("+")
    out = run(["scontrol", "show", "job", jobid])
    if out is not None:
        m = re.search(r"JobState=(\S+)", out)
        return m.group(1) if m else ""
    return "" if run(["sinfo", "-h", "-o", "%P"]) is not None else None


def main():
    jobid = sys.argv[1].split(";")[0].strip()
    for attempt in range(5):
        st = state(jobid)
        if st:
            break
        time.sleep(2)  # just submitted (not yet in accounting) or the controller is busy
    if st == "COMPLETED":
        print("success")
    elif st in RUNNING:
        print("running")
    elif st is None:
        print("running")  # Slurm cannot be asked right now: ask again at the next check
    else:
        print("failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
