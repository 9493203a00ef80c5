"""The run stage: one `engbench run` (or calibration) from its parameters to a sealed run directory.

Modules: params (RunRequest, parameter files), errors (ParamError, the stage's refusal), units
(sizes as written), driver (the compiled driver: describe, validate, start), targets (embedded
engines or servers), servers/ (private MariaDB, FerretDB, MongoDB by URI, redaction), limits and
cgroups (run limits: memory, read IOPS, drop caches), capture (iostat, vmstat, the driver process
and cgroup samplers), children (subprocesses that die with engbench), progress (the progress
line), machine (hardware and software of the host), rundir (run directory layout, manifest,
sealing), runs (execute: one run end to end), stopper (signals during a run), outcome (a run's
status and error: OOM killer, full disk), disk (directories a run writes to: refusal, full),
housekeeping (what a dead engbench left: claims, abandoned runs, their engine data), calibrate
(fio runs for the devices table),
experiments (one workload on several engines, as the notebooks call it)."""
