"""A match may end with a tie-break hand (engine/match.py's arithmetic, used by the app): when the match
proper ends tied and the teacher asked for it, one more hand is dealt among everyone; its scores decide
between the leaders only and never count in the totals."""
from __future__ import annotations

from types import SimpleNamespace

from app.services import deals

from .web_support import for_play, get_state, open_table, teacher_client

COMPUTERS = [{"kind": "computer"}] * 4


def _result(players, scores, tie_break=False):
    out = {"players": players, "scores": dict(zip(players, scores))}
    if tie_break:
        out["tie_break"] = True
    return out


def _table(results, status="playing", tie_break=True, deals_in_match=1):
    seats = [SimpleNamespace(position=i, name=name) for i, name in enumerate(["A", "B", "C"])]
    rows = [SimpleNamespace(result=r, result_json="x") for r in results]
    return SimpleNamespace(seats=seats, deals=rows, status=status, match_format="hands",
                           match_value=deals_in_match, match_tie_break=tie_break)


def test_a_tied_match_goes_to_a_tie_break_hand_whose_scores_only_break_the_tie():
    tied = _result(["A", "B", "C"], [5, 5, 3])
    assert deals.in_tie_break(_table([tied]))
    assert not deals.in_tie_break(_table([tied], tie_break=False))
    assert not deals.in_tie_break(_table([_result(["A", "B", "C"], [6, 4, 3])]))
    settled = _table([tied, _result(["A", "B", "C"], [2, 4, 7], tie_break=True)], status="finished")
    # C scored most in the tie-break hand but was no leader: B, the better of the two leaders, wins.
    assert deals.match_winners(settled) == ["B"]
    assert [row["total"] for row in deals.standings(settled)] == [5, 5, 3]  # the extra hand is not counted


def test_a_table_that_ends_tied_deals_the_tie_break_hand(app):
    for_play(app)
    teacher = teacher_client(app)
    for _attempt in range(40):  # computer players, every hand to the end at once; some matches end tied
        code = open_table(teacher, rules="standard", seats=COMPUTERS,
                          match={"format": "hands", "value": 1, "tie_break": True})
        assert teacher.post(f"/api/tables/{code}/start").status_code == 200
        state = get_state(teacher, code)
        assert state["match"]["tie_break"] is True and state["status"] == "finished"
        first = state["hands"][0]
        best = max(first["scores"].values())
        leaders = [name for name, score in first["scores"].items() if score == best]
        if len(leaders) == 1:
            assert len(state["hands"]) == 1 and state["match"]["winners"] == leaders
            continue
        assert len(state["hands"]) == 2 and state["hands"][1].get("tie_break") is True
        extra = state["hands"][1]["scores"]
        top = max(extra[name] for name in leaders)
        assert sorted(state["match"]["winners"]) == sorted(n for n in leaders if extra[n] == top)
        assert {row["total"] for row in state["standings"]} <= set(first["scores"].values())
        return
    raise AssertionError("no match of 40 ended tied: the test needs another deal seed")


def test_without_the_choice_a_tied_match_is_shared(app):
    for_play(app)
    teacher = teacher_client(app)
    for _attempt in range(40):
        code = open_table(teacher, rules="standard", seats=COMPUTERS, match={"format": "hands", "value": 1})
        assert teacher.post(f"/api/tables/{code}/start").status_code == 200
        state = get_state(teacher, code)
        assert len(state["hands"]) == 1 and state["match"]["tie_break"] is False
        scores = state["hands"][0]["scores"]
        best = max(scores.values())
        if sum(score == best for score in scores.values()) > 1:
            assert sorted(state["match"]["winners"]) == sorted(n for n, s in scores.items() if s == best)
            return
    raise AssertionError("no match of 40 ended tied: the test needs another deal seed")
