"""Run the selected e2e jobs on a small thread pool; each test waits for its own report.

A job is (kind, agent) with kind "control", "global", "project", "deny", "fail_open" or
"backend".
Every run has its own HOME, repository, network namespace and env marker, so two can run
side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from e2e.driver import backend_run, control_run, deny_run, fail_open_run, round_trip
from e2e.install import InstallReport, install_problems
from e2e.records import AgentReport

Job = tuple[str, str]  # (kind, agent)


class Scheduler:
    """Runs the selected jobs on a small pool, in test order; tests wait for their own."""

    def __init__(
        self, installed: dict[str, InstallReport], work_root: str, template: str, jobs: int
    ) -> None:
        self.installed = installed
        self.work_root = work_root
        self.template = template
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="e2e")
        self.futures: dict[Job, Future[AgentReport]] = {}

    def _runner(self, job: Job) -> Callable[[], AgentReport]:
        kind, agent = job
        if kind == "control":
            return lambda: control_run(agent, self.work_root, self.template)
        if kind == "deny":
            return lambda: deny_run(agent, self.work_root, self.template)
        if kind == "fail_open":
            return lambda: fail_open_run(agent, self.work_root, self.template)
        if kind.startswith("readme_"):
            from e2e.readme_loop import readme_loop

            return lambda: readme_loop(agent, self.work_root, kind.removeprefix("readme_"))
        if kind == "backend":
            return lambda: backend_run(agent, self.work_root, self.template)
        scope = "global" if kind == "global" else "project"
        return lambda: round_trip(agent, self.work_root, self.template, scope=scope)

    def submit(self, job: Job) -> None:
        if job not in self.futures and not install_problems(self.installed, job[1]):
            self.futures[job] = self.pool.submit(self._runner(job))

    def report(self, kind: str, agent: str) -> AgentReport:
        problems = install_problems(self.installed, agent)
        assert not problems, f"install failed: {problems}"
        self.submit((kind, agent))
        return self.futures[(kind, agent)].result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
