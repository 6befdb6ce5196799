"""CI logs in the shapes their systems write them (written after real
logs: GitHub Actions' step output and log download, a GitLab runner's job
trace, a Buildkite agent's job log), for the page tests and the browser."""

from __future__ import annotations

ESC = b"\x1b"

#: A GitHub Actions job: a download's timestamped ``##[group]`` and the
#: ``::group::`` and annotation commands a step prints.
GITHUB = (
    b"2026-01-02T03:04:05.1234567Z ##[group]Run actions/checkout@v4\n"
    b"2026-01-02T03:04:05.1234567Z with:\n"
    b"2026-01-02T03:04:05.1234567Z   repository: acme/app\n"
    b"2026-01-02T03:04:05.1234567Z ##[endgroup]\n"
    b"::group::Install <deps>\n"
    b"Collecting pytest\n"
    b"\x1b[32mSuccessfully installed pytest-8.3.0\x1b[0m\n"
    b"::endgroup::\n"
    b"::warning file=src/app.py,line=3,title=Deprecated call::datetime.utcnow() is deprecated\n"
    b"::error file=tests/test_app.py,line=12::AssertionError: assert 1 == 2%0Aafter 3 tries\n"
    b"::notice::Coverage 91%\n"
    b"\x1b[31m1 failed\x1b[0m, 41 passed in 0.52s\n"
    b"##[error]Process completed with exit code 1.\n"
)  # fmt: skip

#: The page's lines of GITHUB: (number, text shown), each summary a line.
GITHUB_PAGE = [
    (1, "2026-01-02T03:04:05.1234567Z Run actions/checkout@v4"),
    (2, "2026-01-02T03:04:05.1234567Z with:"),
    (3, "2026-01-02T03:04:05.1234567Z   repository: acme/app"),
    (5, "Install <deps>"),
    (6, "Collecting pytest"),
    (7, "Successfully installed pytest-8.3.0"),
    (9, "Warning: datetime.utcnow() is deprecated"),
    (10, "Error: AssertionError: assert 1 == 2%0Aafter 3 tries"),
    (11, "Notice: Coverage 91%"),
    (12, "1 failed, 41 passed in 0.52s"),
    (13, "Error: Process completed with exit code 1."),
]

#: A GitLab job trace: the runner's collapsed and nested sections, an end
#: and the next start on one line, and the unix times they carry.
GITLAB = (
    b"\x1b[0KRunning with gitlab-runner 17.5.0 (12345678)\x1b[0;m\n"
    b"\x1b[0K  on docker-runner abcdEFGH\x1b[0;m\n"
    b"section_start:1700000000:prepare_executor[collapsed=true]\r\x1b[0K"
    b"\x1b[0K\x1b[36;1mPreparing the \"docker\" executor\x1b[0;m\x1b[0;m\n"
    b"\x1b[0KUsing Docker executor with image python:3.12 ...\x1b[0;m\n"
    b"section_end:1700000003:prepare_executor\r\x1b[0K"
    b"\x1b[0Ksection_start:1700000003:step_script\r\x1b[0K"
    b"\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m\x1b[0;m\n"
    b"\x1b[32;1m$ pip install -r requirements.txt\x1b[0;m\n"
    b"section_start:1700000006:pip_install[collapsed=true]\r\x1b[0KInstalling <dependencies>\n"
    b"Collecting pytest\n"
    b"Successfully installed pytest-8.3.0\n"
    b"section_end:1700000031:pip_install\r\x1b[0K\n"
    b"\x1b[32;1m$ pytest -q\x1b[0;m\n"
    b"\x1b[31m1 failed\x1b[0m, 41 passed in 0.52s\n"
    b"section_end:1700000100:step_script\r\x1b[0K"
    b"\x1b[0Ksection_start:1700000100:upload_artifacts_on_failure\r\x1b[0K"
    b"\x1b[0K\x1b[36;1mUploading artifacts for failed job\x1b[0;m\x1b[0;m\n"
    b"\x1b[32;1mUploading artifacts...\x1b[0;m\n"
    b"section_end:1700003761:upload_artifacts_on_failure\r\x1b[0K"
    b"\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m\n"
)  # fmt: skip

GITLAB_PAGE = [
    (1, "Running with gitlab-runner 17.5.0 (12345678)"),
    (2, "  on docker-runner abcdEFGH"),
    (3, 'Preparing the "docker" executor'),
    (4, "Using Docker executor with image python:3.12 ..."),
    (5, 'Executing "step_script" stage of the job script'),
    (6, "$ pip install -r requirements.txt"),
    (7, "Installing <dependencies>"),
    (8, "Collecting pytest"),
    (9, "Successfully installed pytest-8.3.0"),
    (11, "$ pytest -q"),
    (12, "1 failed, 41 passed in 0.52s"),
    (13, "Uploading artifacts for failed job"),
    (14, "Uploading artifacts..."),
    (15, "ERROR: Job failed: exit code 1"),
    (16, ""),
]
#: Its sections: (title, open, duration), in the order they open.
GITLAB_SECTIONS = [
    ('Preparing the "docker" executor', False, "00:03"),
    ('Executing "step_script" stage of the job script', True, "01:37"),
    ("Installing <dependencies>", False, "00:25"),
    ("Uploading artifacts for failed job", True, "1:01:01"),
]


def _bk(milliseconds: int, line: bytes) -> bytes:
    return b"\x1b_bk;t=" + str(milliseconds).encode() + b"\x07" + line + b"\r\n"


#: A Buildkite job log: each line after the agent's timestamp.
BUILDKITE = b"".join(
    [
        _bk(1700000000000, b"~~~ Preparing working directory"),
        _bk(1700000000100, b"$ cd /var/lib/buildkite-agent/builds/agent-1/acme/app"),
        _bk(1700000000200, b"--- :docker: Pull images"),
        _bk(1700000001000, b"Pulling postgres ... \x1b[32mdone\x1b[0m"),
        _bk(1700000005000, b"+++ :pytest: Run tests"),
        _bk(1700000006000, b"tests/test_app.py .F."),
        _bk(1700000006000, b"\x1b[31m1 failed\x1b[0m, 41 passed"),
        _bk(1700000006100, b"^^^ +++"),
        _bk(1700000006200, b"\x1b[31mError: The command exited with status 1\x1b[0m"),
    ]
)

BUILDKITE_PAGE = [
    (1, "[22:13:20] Preparing working directory"),
    (2, "[22:13:20] $ cd /var/lib/buildkite-agent/builds/agent-1/acme/app"),
    (3, "[22:13:20] :docker: Pull images"),
    (4, "[22:13:21] Pulling postgres ... done"),
    (5, "[22:13:25] :pytest: Run tests"),
    (6, "[22:13:26] tests/test_app.py .F."),
    (7, "[22:13:26] 1 failed, 41 passed"),
    (9, "[22:13:26] Error: The command exited with status 1"),
]
