"""The workflow on a real Slurm cluster, end to end (ctest workflow_slurm; docs/sweeps.md, "On a Slurm cluster").

Starts a single-node Slurm 22.05 from Debian's packages under a temporary folder: munged, MariaDB,
slurmdbd (accounting), slurmctld and slurmd, each with its configuration, PID file, socket, spool,
state and log there, on free ports of 127.0.0.1 (nothing on the system's own paths, no systemd).
Then it runs one quick figure with workflow/profiles/slurm as shipped; the only additions are
the site's account and partition, given as a user gives them (SBATCH_ACCOUNT, SBATCH_PARTITION).
One job (a group of points) is cancelled with scancel while the figure runs: the profile's status script must
report it failed, so that the engine retries it instead of waiting for it forever. Checked:

1. the workflow finishes, and the cancelled job is CANCELLED in sacct;
2. every point of the figure was written by a Slurm job that sacct reports COMPLETED, and only
   points ran as jobs (the build, the CSV and the plot are the engine's local rules);
3. the figure equals a local run's (`--cores 2`, another working directory): its Markdown and PNG
   byte for byte, its CSV apart from the host's timings and the binary's commit (host.*, build.*).

Every daemon is stopped by its PID at the end, failed or not; jobs still queued are cancelled first.

    python3 workflow/tests/run_slurm.py SIM WORKDIR

Needs root (slurmd runs a job as its user; exit 77: skipped otherwise, a failure when
SYNCRON_REQUIRE_SLURM is set, as CI sets it) and Debian's slurmctld,
slurmd, slurmdbd, slurm-client, munge and mariadb-server (scripts/deps.sh installs them; without
them the test fails).
"""
import csv
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SNAKEFILE = os.path.join(ROOT, "workflow", "Snakefile")
PROFILE = os.path.join(ROOT, "workflow", "profiles", "slurm")
FIGURE = "fig20"  # the smallest quick figure: 6 points
TOOLS = ["munged", "mungekey", "mariadb-install-db", "mariadbd", "mariadb", "slurmdbd", "slurmctld", "slurmd",
         "sbatch", "squeue", "sacct", "sacctmgr", "scancel", "scontrol", "sinfo"]
PACKAGES = "slurmctld slurmd slurmdbd slurm-client munge mariadb-server"
CLUSTER, ACCOUNT, PARTITION = "syncron", "syncron", "points"
T0 = time.monotonic()


class Failure(Exception):
    pass


def log(message):
    print(f"[{time.monotonic() - T0:5.1f} s] {message}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, test, timeout, daemons=()):
    """Polls test() until it is true; fails with the log of any daemon that died meanwhile."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for d in daemons:
            if d.proc.poll() is not None:
                raise Failure(f"{d.name} exited with {d.proc.returncode} while waiting for {what}:\n{d.tail()}")
        if test():
            return
        time.sleep(0.2)
    raise Failure(f"no {what} after {timeout} s:\n" + "\n".join(d.tail() for d in daemons))


class Daemon:
    """One daemon in the foreground, a child of this process: stopped by its PID."""

    def __init__(self, name, cmd, tmp, env):
        self.name, self.log = name, os.path.join(tmp, f"{name}.out")
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=env, cwd=tmp)

    def tail(self, n=20):
        with open(self.log, errors="replace") as f:
            return f"--- {self.name} ({self.log}):\n" + "".join(f.readlines()[-n:])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Cluster:
    def __init__(self, tmp):
        self.tmp, self.daemons = tmp, []
        self.env = dict(os.environ, SLURM_CONF=os.path.join(tmp, "slurm.conf"))
        self.user = subprocess.run(["id", "-un"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()

    def run(self, *cmd, check=True):
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env)
        if check and done.returncode != 0:
            raise Failure(f"{' '.join(cmd)}: exit {done.returncode}\n{done.stdout}")
        return done

    def start(self, name, *cmd):
        d = Daemon(name, list(cmd), self.tmp, self.env)
        self.daemons.append(d)
        return d

    def up(self):
        t = self.tmp
        ports = {k: free_port() for k in ("db", "dbd", "ctld", "slurmd")}
        # munge: its own key, socket, PID and seed file.
        self.run("mungekey", "--create", f"--keyfile={t}/munge.key")
        munge = self.start("munged", "munged", "--foreground", f"--socket={t}/munge.sock", f"--key-file={t}/munge.key",
                           f"--pid-file={t}/munged.pid", f"--seed-file={t}/munge.seed", f"--log-file={t}/munged.log")
        # MariaDB for slurmdbd: its own data directory, socket and port on 127.0.0.1.
        self.run("mariadb-install-db", "--no-defaults", f"--datadir={t}/db", f"--user={self.user}",
                 "--auth-root-authentication-method=normal", "--skip-test-db")
        db = self.start("mariadbd", "mariadbd", "--no-defaults", f"--datadir={t}/db", f"--socket={t}/db.sock",
                        f"--port={ports['db']}", "--bind-address=127.0.0.1", f"--pid-file={t}/db.pid",
                        f"--user={self.user}", f"--log-error={t}/db.err", "--innodb-buffer-pool-size=64M")
        wait_for("munge socket", lambda: os.path.exists(f"{t}/munge.sock"), 30, [munge])
        wait_for("MariaDB socket", lambda: os.path.exists(f"{t}/db.sock"), 60, [db])
        self.run("mariadb", "--no-defaults", f"--socket={t}/db.sock", "-u", "root", "-e",
                 "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurm'; "
                 "GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';")
        auth = f"AuthType=auth/munge\nAuthInfo=socket={t}/munge.sock\n"
        with open(f"{t}/slurmdbd.conf", "w") as f:
            f.write(auth + f"DbdHost=localhost\nDbdAddr=127.0.0.1\nDbdPort={ports['dbd']}\nSlurmUser={self.user}\n"
                    f"PidFile={t}/slurmdbd.pid\nLogFile={t}/slurmdbd.log\nStorageType=accounting_storage/mysql\n"
                    f"StorageHost=127.0.0.1\nStoragePort={ports['db']}\nStorageUser=slurm\nStoragePass=slurm\n"
                    "StorageLoc=slurm_acct_db\n")
        os.chmod(f"{t}/slurmdbd.conf", 0o600)
        # The node as slurmd sees it (CPUs, memory): a node configured beyond it would be drained.
        node = self.run("slurmd", "-C").stdout.splitlines()[0]
        if not node.startswith("NodeName="):
            raise Failure(f"slurmd -C: {node}")
        os.makedirs(f"{t}/state")
        os.makedirs(f"{t}/spool")
        with open(f"{t}/slurm.conf", "w") as f:
            f.write(auth + f"""ClusterName={CLUSTER}
SlurmctldHost={node.split()[0].split("=")[1]}(127.0.0.1)
SlurmctldPort={ports['ctld']}
SlurmdPort={ports['slurmd']}
SlurmUser={self.user}
CredType=cred/munge
StateSaveLocation={t}/state
SlurmdSpoolDir={t}/spool
SlurmctldPidFile={t}/slurmctld.pid
SlurmdPidFile={t}/slurmd.pid
SlurmctldLogFile={t}/slurmctld.log
SlurmdLogFile={t}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort={ports['dbd']}
AccountingStoragePass={t}/munge.sock
AccountingStorageEnforce=associations
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
{node} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName={PARTITION} Nodes=ALL Default=NO MaxTime=INFINITE State=UP
""")
        dbd = self.start("slurmdbd", "slurmdbd", "-D")
        wait_for("slurmdbd", lambda: self.run("sacctmgr", "-n", "list", "cluster", check=False).returncode == 0,
                 60, [dbd, db, munge])
        # Accounting as a site has it: the cluster, an account, the user in it.
        self.run("sacctmgr", "-i", "add", "cluster", CLUSTER)
        self.run("sacctmgr", "-i", "add", "account", ACCOUNT, f"Cluster={CLUSTER}")
        self.run("sacctmgr", "-i", "add", "user", self.user, f"Account={ACCOUNT}", f"Cluster={CLUSTER}")
        ctld = self.start("slurmctld", "slurmctld", "-D", "-c")
        slurmd = self.start("slurmd", "slurmd", "-D")

        def idle():
            out = self.run("sinfo", "-h", "-p", PARTITION, "-o", "%t", check=False).stdout.strip()
            return out == "idle"
        wait_for("idle node", idle, 60, [ctld, slurmd, dbd])

    def down(self):
        """Jobs still in the queue cancelled, then every daemon stopped by its PID, the last started first."""
        if any(d.name == "slurmctld" and d.proc.poll() is None for d in self.daemons):
            ids = self.run("squeue", "-h", "-o", "%i", check=False).stdout.split()
            if ids:
                self.run("scancel", *ids, check=False)
                end = time.monotonic() + 20
                while time.monotonic() < end and self.run("squeue", "-h", check=False).stdout.strip():
                    time.sleep(0.5)
        for d in reversed(self.daemons):
            d.stop()


def snakemake(workdir, sim, *args):
    return ["snakemake", "-s", SNAKEFILE, "--directory", workdir, *args, FIGURE,
            "--config", "mode=quick", f"sim={sim}", "build=false"]


class Canceller(threading.Thread):
    """scancel on the first job of the workflow seen in the queue (pending or running), as a user would."""

    def __init__(self, cluster):
        super().__init__(daemon=True)
        self.cluster, self.jobid, self.done = cluster, None, threading.Event()

    def run(self):
        while not self.done.is_set() and self.jobid is None:
            out = self.cluster.run("squeue", "-h", "-o", "%i %j", check=False).stdout.split("\n")
            for line in out:
                if " syncron." in line:
                    self.jobid = line.split()[0]
                    self.cluster.run("scancel", self.jobid, check=False)
                    break
            time.sleep(0.05)


def stats_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [{k: v for k, v in r.items() if not k.startswith(("host.", "build."))} for r in rows]


def check(cluster, work, local, run_out, cancelled):
    fig = os.path.join("results", FIGURE)
    # 1. The cancelled job.
    if cancelled is None:
        raise Failure("no point job was seen in the queue to cancel")
    state = cluster.run("sacct", "-n", "-P", "-X", "-j", cancelled, "--format=State").stdout.strip()
    if not state.startswith("CANCELLED"):
        raise Failure(f"job {cancelled}: sacct says '{state}', expected CANCELLED (scancel came too late?)")
    # 2. Every point by a completed Slurm job, and only points.
    def accounted():
        jobs = {}
        out = cluster.run("sacct", "-n", "-P", "-X", "--format=JobIDRaw,JobName,State,Account").stdout
        for line in out.splitlines():
            jid, name, st, account = line.split("|")
            jobs[jid] = (name, st, account)
        return jobs
    # The engine may have seen a job end through scontrol before accounting recorded it.
    end = time.monotonic() + 30
    while any(v[1] in ("PENDING", "RUNNING", "COMPLETING") for v in accounted().values()) and time.monotonic() < end:
        time.sleep(0.5)
    jobs = accounted()
    expected = sorted(os.path.basename(p) for p in glob.glob(os.path.join(local, "results", "points", "*.json")))
    if not expected:
        raise Failure("the local run wrote no points")
    by_job = {}
    for jid, (name, st, account) in jobs.items():
        if not name.startswith("syncron."):
            raise Failure(f"job {jid} '{name}' is not a workflow job")
        if account != ACCOUNT:
            raise Failure(f"job {jid} ran under account '{account}', not {ACCOUNT} (SBATCH_ACCOUNT)")
        if st != "COMPLETED":
            continue
        with open(os.path.join(work, ".snakemake", "slurm_logs", f"{jid}.log")) as f:
            text = f.read()
        rules = set(re.findall(r"^(?:local)?rule (\w+):", text, re.M))
        if rules != {"point"}:
            raise Failure(f"job {jid} ran rules {sorted(rules)}: only points may be Slurm jobs (the rest are local)")
        for out in re.findall(r"output: results/points/(\S+\.json)", text):
            by_job.setdefault(out, []).append(jid)
    missing = [p for p in expected if p not in by_job]
    if missing:
        raise Failure(f"points not written by a completed Slurm job: {missing}\nsacct: {jobs}\n{run_out[-3000:]}")
    extra = sorted(set(by_job) - set(expected))
    if extra:
        raise Failure(f"Slurm jobs wrote points the local run has not: {extra}")
    # 3. The same figure as the local run.
    for ext in ("md", "png"):
        a, b = (os.path.join(d, fig, f"{FIGURE}.{ext}") for d in (local, work))
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                raise Failure(f"{b} differs from the local run's {a}")
    a, b = (stats_rows(os.path.join(d, fig, f"{FIGURE}.csv")) for d in (local, work))
    if a != b:
        diff = sorted({k for x, y in zip(a, b) for k in x if x.get(k) != y.get(k)})
        raise Failure(f"{FIGURE}.csv differs from the local run's (rows {len(a)} / {len(b)}; columns {diff[:10]})")
    ok = sum(1 for v in jobs.values() if v[1] == "COMPLETED")
    return (f"{FIGURE} quick on Slurm: {len(expected)} points, each written by a COMPLETED Slurm job ({ok} in all, "
            f"job {cancelled} {state} and retried); CSV, PNG and Markdown equal to the local run's")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    sim, workroot = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    missing = [t for t in TOOLS if shutil.which(t, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin") is None]
    if missing:
        print(f"FAIL: {' '.join(missing)} not found: install Debian's {PACKAGES} (scripts/deps.sh)")
        return 1
    if os.geteuid() != 0:
        if os.environ.get("SYNCRON_REQUIRE_SLURM"):
            print("FAIL: SYNCRON_REQUIRE_SLURM is set (CI) but this is not root: the Slurm test would be skipped")
            return 1
        print("SKIP: needs root (slurmd starts each job as its user); CI runs it as root")
        return 77
    os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    for d in ("slurm", "local"):
        shutil.rmtree(os.path.join(workroot, d), ignore_errors=True)
    os.makedirs(workroot, exist_ok=True)
    work, local = os.path.join(workroot, "slurm"), os.path.join(workroot, "local")
    tmp = tempfile.mkdtemp(prefix="syncron-slurm-")
    os.chmod(tmp, 0o755)  # munged wants every directory above its socket searchable by all
    cluster = Cluster(tmp)
    engine = local_run = None

    def terminated(signum, frame):
        raise Failure(f"signal {signum}")
    signal.signal(signal.SIGTERM, terminated)
    status = 1
    try:
        # The local run goes on while the daemons start.
        local_run = subprocess.Popen(snakemake(local, sim, "--cores", "2"), stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        cluster.up()
        log(f"Slurm up under {tmp} (munged, MariaDB, slurmdbd, slurmctld, slurmd)")
        local_out = local_run.communicate(timeout=600)[0]
        if local_run.returncode != 0:
            raise Failure(f"local run:\n{local_out[-3000:]}")
        log(f"local run of {FIGURE} done")
        env = dict(cluster.env, SBATCH_ACCOUNT=ACCOUNT, SBATCH_PARTITION=PARTITION)
        canceller = Canceller(cluster)
        canceller.start()
        engine = subprocess.Popen(snakemake(work, sim, "--profile", PROFILE), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=env)
        try:
            run_out = engine.communicate(timeout=300)[0]
        except subprocess.TimeoutExpired:
            engine.kill()
            run_out = engine.communicate()[0]
            raise Failure(f"the Slurm run did not finish in 300 s (a cancelled job waited for?):\n{run_out[-3000:]}")
        canceller.done.set()
        if engine.returncode != 0:
            raise Failure(f"Slurm run, exit {engine.returncode}:\n{run_out[-3000:]}")
        log(f"Slurm run of {FIGURE} done")
        print(check(cluster, work, local, run_out, canceller.jobid))
        status = 0
    except Failure as e:
        print(f"FAIL: {e}")
        for d in cluster.daemons:
            if d.name in ("slurmctld", "slurmd") or d.proc.poll() is not None:
                print(d.tail())
    finally:
        for p in (engine, local_run):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
        cluster.down()
        log("Slurm stopped")
        if status == 0 and not os.environ.get("SYNCRON_KEEP_SLURM"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"cluster files kept in {tmp}")
    return status


if __name__ == "__main__":
    sys.exit(main())
