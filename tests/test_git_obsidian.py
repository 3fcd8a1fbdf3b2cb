"""A vault people keep in git and open in Obsidian (issue 61): real git with a bare origin
and two clones, and Obsidian-shaped folders."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import VMEM

import vault_memory as vmem
from vault_memory.vault.template import create_vault

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}


def git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, **IDENTITY}
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env)


def _vmem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([VMEM, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def two_clones(tmp_path: Path) -> tuple[Path, Path]:
    """A vault pushed to a bare origin, and a second clone of it."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    first = create_vault(tmp_path / "a", with_examples=False)
    git(first, "init", "-q", "-b", "main")
    git(first, "remote", "add", "origin", str(origin))
    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a blue Brompton\n")
    git(first, "add", "-A")
    git(first, "commit", "-qm", "first")
    git(first, "push", "-q", "origin", "main")
    second = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(origin), str(second))
    return first, second


@pytest.mark.slow
def test_conflict_markers_never_reach_the_agent_and_are_named_with_their_sides(two_clones):
    first, second = two_clones
    assert _vmem("hooks", "install", "git", "--vault", str(first)).returncode == 0
    (second / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a green Brompton\n")
    git(second, "commit", "-qam", "green")
    git(second, "push", "-q", "origin", "main")
    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a red Brompton\n")
    git(first, "commit", "-qam", "red")
    merged = git(first, "pull", "-q", "--no-rebase", "origin", "main")
    assert merged.returncode != 0 and "<<<<<<<" in (first / "facts" / "bike.md").read_text()

    recalled = _vmem("recall", "what bike do I ride?", "--vault", str(first))
    assert recalled.returncode == 0 and "<<<<<<<" not in recalled.stdout and "=======" not in recalled.stdout
    doctor = _vmem("doctor", "--vault", str(first))
    said = doctor.stdout + doctor.stderr
    assert doctor.returncode != 0 and "facts/bike.md" in said and "merge conflict between HEAD and" in said

    git(first, "add", "facts/bike.md")  # markers and all: the pre-commit hook stops it
    blocked = git(first, "commit", "-qm", "merge")
    assert blocked.returncode != 0 and "merge conflict" in blocked.stderr + blocked.stdout

    (first / "facts" / "bike.md").write_text("---\nid: bike\ntype: fact\n---\nMy bike is a red Brompton\n")
    git(first, "add", "facts/bike.md")
    assert git(first, "commit", "-qm", "merge").returncode == 0
    with vmem.open(first, use_daemon=False) as mem:
        assert "red Brompton" in mem.recall("what bike do I ride?").block


@pytest.fixture
def obsidian(tmp_path: Path) -> Path:
    """A vault in an Obsidian folder: its settings, daily notes, attachments, links."""
    vault = create_vault(tmp_path / "vault", with_examples=False)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "daily-notes.json").write_text('{"folder": "Daily Notes"}')
    (vault / "attachments").mkdir()
    (vault / "attachments" / "cafe.png").write_bytes(b"\x89PNG\r\n")
    return vault


def test_a_hand_written_note_is_dated_by_what_its_person_did(obsidian):
    """Issue 61: a file without `created:` counted as the oldest memory of all, so a value
    written by hand after an older one was marked "older — may be outdated". It is dated by
    its `date:` field, a date in its name, else its modification; `show` and `list` say which."""
    import datetime as dt

    now = dt.datetime.now().astimezone()
    with vmem.open(obsidian, use_daemon=False) as mem:
        old = mem.remember("My dentist is Dr. Weiss", now=now - dt.timedelta(days=40)).memory
    (obsidian / "facts" / "dentist.md").write_text("---\ntype: fact\n---\nMy dentist is Dr. Roth\n")  # by hand, today
    yesterday = (now - dt.timedelta(days=1)).date()
    daily = obsidian / "Daily Notes" / f"{yesterday.isoformat()}.md"
    daily.parent.mkdir()
    daily.write_text("Fixed the garden gate and called the plumber\n")
    (obsidian / "notes").mkdir(exist_ok=True)
    (obsidian / "notes" / "retro.md").write_text("---\ndate: 2026-03-02\n---\nThe retro moved to Thursdays\n")

    with vmem.open(obsidian, use_daemon=False) as mem:
        block = mem.recall("who is my dentist?").block
        lines = [line for line in block.splitlines() if "Dr." in line]
        assert lines and "Roth" in lines[0] and "outdated" not in lines[0], block  # the newer, unmarked
        assert all("outdated" in line for line in lines if "Weiss" in line), block
        assert "garden gate" in mem.recall("what did I do yesterday?").block
        assert "garden gate" in mem.recall(f"what happened on {yesterday.isoformat()}?").block  # a day, not a year
        listed = {m.path.name: m for m in mem.list().memories if m.path is not None}
    assert listed[daily.name].dated_by == "its file name" and listed[daily.name].dated.date() == yesterday
    assert listed["retro.md"].dated_by == "its date: field" and listed["retro.md"].dated.date() == dt.date(2026, 3, 2)
    assert listed["dentist.md"].dated_by == "when it was last modified" and old.id in {m.id for m in listed.values()}
    shown = _vmem("show", listed["retro.md"].id, "--vault", str(obsidian)).stdout
    assert "dated:      2026-03-02  (by its date: field" in shown
    assert (obsidian / "notes" / "retro.md").read_text().startswith("---\ndate: 2026-03-02\n---\n")  # untouched


def test_links_are_shown_as_the_text_obsidian_shows(obsidian):
    (obsidian / "notes").mkdir(exist_ok=True)
    (obsidian / "notes" / "lunch.md").write_text(
        "Lunch with [[People/Marta Quiroga|Marta]] at [[Places/Café Lua]], see [[Trips/Lisbon#Day 2]] ![[attachments/cafe.png]]\n"
    )
    with vmem.open(obsidian, use_daemon=False) as mem:
        block = mem.recall("who did I have lunch with?").block
    assert "Lunch with Marta at Café Lua, see Lisbon > Day 2 cafe.png" in block and "[[" not in block


def _corrected_then_forgotten_in_the_first(first: Path, second: Path, said: str, corrected: str):
    """``said`` corrected to ``corrected`` in the first clone, both clones pulled to it, then
    the correction forgotten in the first and pushed; the correction, as it was."""
    with vmem.open(first, use_daemon=False) as mem:
        oldest = mem.remember(said).memory
        middle = mem.correct(oldest.id, corrected).memory
    git(first, "add", "-A")
    git(first, "commit", "-qm", "corrected")
    git(first, "push", "-q", "origin", "main")
    git(second, "pull", "-q", "--no-rebase", "origin", "main")
    with vmem.open(first, use_daemon=False) as mem:
        mem.forget(middle.id)
    git(first, "add", "-A")
    git(first, "commit", "-qm", "forgotten")
    git(first, "push", "-q", "origin", "main")
    return middle


@pytest.mark.slow
def test_a_merge_of_a_forget_and_a_correction_keeps_the_chain(two_clones):
    """Issue 61: one clone forgets a value that had replaced an older one, the other
    corrects it: after the merge the older came back as current beside the newest, unmarked,
    and doctor said "dangling". The newest is current, the superseded stays superseded."""
    first, second = two_clones
    middle = _corrected_then_forgotten_in_the_first(
        first, second, "Our backups run on Saturday nights", "Our backups run on Wednesday nights"
    )
    with vmem.open(second, use_daemon=False) as mem:
        newest = mem.correct(middle.id, "Our backups run on Sunday mornings").memory
    git(second, "add", "-A")
    git(second, "commit", "-qm", "sunday")
    merged = git(second, "pull", "-q", "--no-rebase", "origin", "main")
    assert merged.returncode == 0, merged.stderr

    with vmem.open(second, use_daemon=False) as mem:
        block = mem.recall("when do the backups run?").block
        assert "Sunday mornings" in block and "Saturday" not in block and "Wednesday" not in block, block
        assert mem.conflicts() == []
        assert not [p for p in mem.doctor().problems if p.kind == "dangling_supersedes"]
        assert mem.show(newest.id).supersedes == [middle.id]


@pytest.mark.slow
def test_an_edit_in_one_clone_to_a_memory_the_other_forgot_is_not_lost_behind_the_older_value(two_clones):
    """Issue 61: one clone forgets a correction, the other edits it by hand; git's merge
    moves the edited file into the trash (it reads the forget as a rename), and the value
    the correction had replaced came back as current, with nothing said. What it replaced
    stays replaced, recall and doctor say where the newest words are, and restore brings
    them back."""
    first, second = two_clones
    middle = _corrected_then_forgotten_in_the_first(
        first, second, "The book club meets in the library", "The book club meets at Café Lua"
    )
    edited = second / middle.path
    edited.write_text(edited.read_text().replace("Café Lua", "the Hafenbar on Fridays"))  # in Obsidian
    git(second, "commit", "-qam", "by hand")
    assert git(second, "pull", "-q", "--no-rebase", "origin", "main").returncode == 0
    assert not edited.exists()  # the merge took the edit into the trash with the move

    with vmem.open(second, use_daemon=False) as mem:
        result = mem.recall("where does the book club meet?")
        assert "library" not in result.block, result.block  # the older value is not current again
        assert any("edited since" in w and middle.path.as_posix() in w for w in result.warnings), result.warnings
        problems = [p for p in mem.doctor().problems if p.kind == "edited_after_forget"]
        assert [p.path for p in problems] == [middle.path.as_posix()] and f"vmem restore {middle.id}" in problems[
            0
        ].message
        mem.restore(middle.id)
        block = mem.recall("where does the book club meet?").block
        assert "Hafenbar on Fridays" in block and "library" not in block, block


def test_a_templates_folder_is_no_memory_even_without_obsidians_setting(obsidian):
    """Issue 61: a folder of `{{date}}` templates without `.obsidian/templates.json` made
    every recall warn and doctor fail."""
    folder = obsidian / "Templates"
    folder.mkdir()
    (folder / "Meeting.md").write_text("---\ndate: {{date}}\nattendees: {{attendees}}\n---\n# {{title}}\n")
    (obsidian / "facts" / "standup.md").write_text("Standup is at 9:45\n")
    with vmem.open(obsidian, use_daemon=False) as mem:
        result = mem.recall("when is standup?")
        assert "9:45" in result.block and not result.warnings, result.warnings
        assert mem.doctor().ok


def test_recall_follows_links_to_the_note_that_answers(obsidian):
    """Issue 61: links were never followed. "what breed is Marta's dog?" matches the note on
    Marta, which links [[Biscuit]]; the note on Biscuit says the breed but not Marta's name.
    Either way along a link brings it."""
    people, pets = obsidian / "People", obsidian / "Pets"
    people.mkdir()
    pets.mkdir()
    (people / "Marta Quiroga.md").write_text("Marta Quiroga is my climbing partner; her dog is [[Biscuit]].\n")
    (pets / "Biscuit.md").write_text("Biscuit is a wire-haired dachshund, eleven years old, scared of thunder.\n")
    (obsidian / "Trips.md").write_text("Trip to Siurana with [[Marta Quiroga|Marta]] in April.\n")
    for n, breed in enumerate(["beagle", "pug", "whippet", "akita", "corgi", "saluki", "vizsla", "samoyed"] * 4):
        (pets / f"Shelter {n}.md").write_text(f"Shelter dog {n} is a {breed} waiting for a home.\n")  # linked by no one
    with vmem.open(obsidian, use_daemon=False) as mem:
        result = mem.recall("what breed is Marta's dog?")
        linked = {h.memory.path.name: h.explain.get("linked_from") for h in result.hits if h.memory.path}
        back = mem.recall("who climbs with me?").block
    assert "dachshund" in result.block and linked.get("Biscuit.md") == "People/Marta Quiroga.md", linked
    assert "Siurana" in back  # the note that links to Marta's, followed back


def test_of_the_notes_a_note_links_the_one_that_answers_comes_first(obsidian):
    """A linked note was lifted to half its linker's score whatever it said, so every note
    one hub links tied and the file name decided: on a person's own vault the answer fell
    below a recipe the same note linked. A linked note keeps what it scores of its own."""
    (obsidian / "Projects").mkdir()
    (obsidian / "Projects" / "Kestrel.md").write_text(
        "Kestrel is the churn model rewrite.\nSee [[Alpha notes]], [[Budget sheet]], [[Caterer]], [[Zagreb office]].\n"
    )
    (obsidian / "Alpha notes.md").write_text("Loose ideas, to sort later.\n")
    (obsidian / "Budget sheet.md").write_text("Quarterly spend table, owned by finance.\n")
    (obsidian / "Caterer.md").write_text("Lunch order for the offsite: vegetarian lasagne.\n")
    (obsidian / "Zagreb office.md").write_text("Our office on Ilica street, third floor, meeting room Sljeme.\n")
    with vmem.open(obsidian, use_daemon=False) as mem:
        paths = [h.memory.path.name for h in mem.recall("where does the Kestrel team sit?", k=5).hits]
    assert paths.index("Zagreb office.md") <= 1, paths


def test_a_note_is_reached_and_found_by_its_obsidian_aliases(obsidian):
    """Obsidian users name a note's other names in ``aliases:``; ``[[Bea]]`` reaches the
    note and a question that says "Bea" finds it."""
    (obsidian / "Beatriz Salgado.md").write_text(
        "---\naliases: [Bea, Bia]\n---\n# Beatriz Salgado\n\nMy cousin, an architect in Braga.\n"
    )
    (obsidian / "Sunday lunch.md").write_text("Lunch with [[Bea]] at the new place by the river.\n")
    for n in range(12):
        (obsidian / f"Architect {n}.md").write_text(f"Architect {n} designed a library in Braga.\n")
    with vmem.open(obsidian, use_daemon=False) as mem:
        found = mem.recall("what does Bia do for a living?", k=3)
        back = mem.recall("where did we have lunch with Beatriz Salgado?", k=3)
    assert "Beatriz Salgado.md" in [h.memory.path.name for h in found.hits]
    assert "Sunday lunch.md" in [h.memory.path.name for h in back.hits]


@pytest.mark.slow
def test_two_clones_that_correct_one_memory_show_both_and_say_which_is_newer(two_clones):
    """Issue 61: both sides correcting one memory left two current values side by side,
    unmarked. vmem cannot tell which is right: the newer first, the older marked."""
    import datetime as dt

    first, second = two_clones
    with vmem.open(first, use_daemon=False) as mem:
        old = mem.remember("The team retro is on Mondays").memory
    git(first, "add", "-A")
    git(first, "commit", "-qm", "retro")
    git(first, "push", "-q", "origin", "main")
    git(second, "pull", "-q", "--no-rebase", "origin", "main")
    now = dt.datetime.now().astimezone()
    with vmem.open(first, use_daemon=False) as mem:
        mem.correct(old.id, "The team retro is on Wednesdays", now=now - dt.timedelta(hours=2))
    git(first, "add", "-A")
    git(first, "commit", "-qm", "wednesday")
    git(first, "push", "-q", "origin", "main")
    with vmem.open(second, use_daemon=False) as mem:
        mem.correct(old.id, "The team retro is on Fridays", now=now - dt.timedelta(hours=1))
    git(second, "add", "-A")
    git(second, "commit", "-qm", "friday")
    assert git(second, "pull", "-q", "--no-rebase", "origin", "main").returncode == 0

    with vmem.open(second, use_daemon=False) as mem:
        lines = [line for line in mem.recall("which day is the retro?").block.splitlines() if "retro" in line]
    assert "Fridays" in lines[0] and "outdated" not in lines[0], lines
    assert any("Wednesdays" in line and "outdated" in line for line in lines[1:]), lines
    assert not any("Mondays" in line for line in lines), lines


def test_a_note_in_a_repository_is_dated_by_the_commit_that_added_it(tmp_path):
    """Issue 61: a hand-written file without `created:`, `date:` or a date in its name is
    dated by the commit that added it when the vault is a git repository (a clone's files
    are all as new as the clone), else by when it was last modified."""
    import datetime as dt

    vault = create_vault(tmp_path / "vault", with_examples=False)
    git(vault, "init", "-q", "-b", "main")
    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "boat.md").write_text("The dinghy is moored at pontoon C\n")
    git(vault, "add", "-A")
    env_date = "2025-06-14T10:00:00+02:00"
    import os

    subprocess.run(
        ["git", "commit", "-qm", "boat"], cwd=vault, capture_output=True, check=True,
        env={**os.environ, **IDENTITY, "GIT_AUTHOR_DATE": env_date, "GIT_COMMITTER_DATE": env_date},
    )  # fmt: skip
    (vault / "notes" / "oars.md").write_text("The oars are in the garage\n")  # not committed
    with vmem.open(vault, use_daemon=False) as mem:
        listed = {m.path.name: m for m in mem.list().memories if m.path is not None}
    assert listed["boat.md"].dated_by == "the commit that added it"
    assert listed["boat.md"].dated == dt.datetime.fromisoformat(env_date)
    assert listed["oars.md"].dated_by == "when it was last modified"


def test_a_memory_stamped_by_a_clock_ahead_is_shown_and_named(two_clones):
    """A file written on a machine whose clock runs ahead (or with a typo in `created:`)
    arrives by a pull dated days from now: recall left it out of every block, unsaid, as if
    asked `--as-of` today, and `doctor` said all good. It is shown, `doctor` names its date,
    and only a recall asked as of an earlier moment leaves it out."""
    import datetime as dt

    first, second = two_clones
    ahead = (dt.datetime.now().astimezone() + dt.timedelta(days=4)).replace(microsecond=0)
    (first / "facts" / "boiler.md").write_text(
        f"---\nid: boiler\ntype: fact\ncreated: '{ahead.isoformat()}'\n---\nThe boiler service is booked with Hartmann Heating\n"
    )
    git(first, "add", "-A")
    git(first, "commit", "-qm", "from the laptop with its clock ahead")
    git(first, "push", "-q", "origin", "main")
    git(second, "pull", "-q", "origin", "main")

    with vmem.open(second, use_daemon=False) as mem:
        assert "Hartmann Heating" in mem.recall("who services my boiler?").block
        earlier = dt.datetime.now().astimezone() - dt.timedelta(days=1)
        assert "Hartmann" not in mem.recall("who services my boiler?", as_of=earlier).block
    doctor = _vmem("doctor", "--vault", str(second))
    assert "facts/boiler.md" in doctor.stdout and "in the future" in doctor.stdout, doctor.stdout
    assert "[future_created]" in doctor.stdout and doctor.returncode == 1


def test_the_user_says_which_of_a_pair_replaces_the_other_whatever_the_dates(obsidian):
    """A pair recall marks could be settled only by forgetting the wrong one (its history
    lost) or by writing the right one again (`correct`); and a clock ahead on one machine
    makes the wrong one read as the newer. `vmem conflicts --replaces A B` records that A
    replaces B, as named: recall shows A alone, `history` the chain, and the pair is closed."""
    import datetime as dt

    now = dt.datetime.now().astimezone()
    for name, text, when in (
        ("tyres-ahead", "My tyre fitter is Reifen Kolb", now + dt.timedelta(days=3)),
        ("tyres-here", "My tyre fitter is Pneu Stadler", now - dt.timedelta(days=1)),
    ):
        (obsidian / "facts" / f"{name}.md").write_text(
            f"---\nid: {name}\ntype: fact\ncreated: '{when.isoformat()}'\n---\n{text}\n"
        )
    listed = _vmem("conflicts", "--json", "--vault", str(obsidian))
    assert listed.returncode == 1 and json_of(listed)[0]["newer"] == "tyres-ahead"  # the clock ahead reads as newer
    for wrong in (["--replaces", "tyres-here"], ["--replaces", "--both-true", "tyres-here", "tyres-ahead"]):
        assert _vmem("conflicts", *wrong, "--vault", str(obsidian)).returncode == 2
    same = _vmem("conflicts", "--replaces", "tyres-here", "tyres-here", "--vault", str(obsidian))
    assert same.returncode == 2 and "cannot replace itself" in same.stderr
    done = _vmem("conflicts", "--replaces", "tyres-here", "tyres-ahead", "--json", "--vault", str(obsidian))
    assert done.returncode == 0 and json_of(done) == {
        "settled": ["tyres-here", "tyres-ahead"],
        "supersedes": ["tyres-ahead"],
    }
    assert "supersedes: '[[tyres-ahead]]'" in (obsidian / "facts" / "tyres-here.md").read_text()
    with vmem.open(obsidian, use_daemon=False) as mem:
        block = mem.recall("who fits my tyres?").block
        assert "Stadler" in block and "Kolb" not in block, block
        assert not mem.conflicts()
    assert "tyres-ahead" in _vmem("history", "tyres-here", "--vault", str(obsidian)).stdout
    again = _vmem("conflicts", "--replaces", "tyres-ahead", "tyres-here", "--vault", str(obsidian))
    assert again.returncode == 2 and "already replaces" in again.stderr  # no loop of two


def json_of(done: subprocess.CompletedProcess):
    import json

    return json.loads(done.stdout)
