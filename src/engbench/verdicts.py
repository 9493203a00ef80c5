"""One verdict vocabulary for every statement engbench judges: the findings (a source document's
claim measured again here: engbench.rulebook.rules) and the published checks (a printed value
against the values that determine it, a sentence against its document's own tables:
engbench.published). Both import these words; nothing else is printed as a verdict.

    holds                          the rule is met (for a printed value: the value lies in the
                                   interval the other printed values allow, at printed precision)
    holds under another definition the value does not hold as the document states it, but does
                                   under a named definition the numbers fit (an average per
                                   operation rather than a total, truncated rather than rounded,
                                   per request rather than per 200k inserts); that definition is
                                   given with it (published checks: benign_definition)
    does not hold                  the rule is not met (a contradicted trend, an inconsistent
                                   value, a list whose labels differ from the table's; for a
                                   finding: the effect's whole interval lies off the claim's side)
    inconclusive here              a finding's effect interval straddles the claim's threshold
                                   (or is wider than its band): the repetitions here cannot tell;
                                   the interval and the rounds that would decide it are given
    not tested                     a finding that could be tested, but the quantity it compares was
                                   not captured by the runs here; what would be needed is given
    not testable                   the rule cannot be applied: too few repetitions (findings), the
                                   numbers are in no printed table, or an input matches several
                                   records (published checks); the reason is given
    quote not in source            the sentence is not verbatim in its source document (published
                                   claims checked against the documents)
    not in the source's regime     a finding's runs missed a gate of the regime its source document
                                   measured in (rulebook.regime: device reads per operation, data
                                   against cache, a quiet machine ...); the measured figure is given

The tolerances are kept apart on purpose and stated side by side, because the two judge different
evidence — the spread of repeated runs on a shared 2-core machine against one printed number:

    the words                      findings (rules.py: the effect's     published checks (claims.py)
                                   interval, engbench.effects)
    more / less / faster (bare)    ratio of means > 1.1 (1 + the        a > b
                                   smallest effect that matters),
                                   95 % interval; does not hold when
                                   the interval lies wholly <= 1.1
    much, a lot, fast              ratio > 1.5, 95 % interval           ratio >= 1.5
    huge, twice                    ratio > 2, 95 % interval             ratio >= 2 (twice: about 2)
    similar, insensitive, flat     means within 25 %, 90 % interval     values within 10 %
                                   (equivalence: two one-sided tests)
    does not grow / increase       at most 1.25 ×, 90 % interval        no step above 5 %
    about N                        N / 1.25 … N × 1.25, 90 % interval   N / 1.25 … N × 1.25
    best, worst, most, least       —                                    every row of the group
                                                                        beyond every other row
    too little evidence            < 3 repetitions: not testable        printed precision widens
                                                                        each value to an interval

(a run of 20 s on two shared cores varies by 10–20 %, hence 25 %; a printed number carries only
its rounding, hence 10 %. The smallest effect that matters for a bare "more", 10 %, is the machine's
own A/A spread, measured before these data (benchmarks/host_noise.py, README "How much of the spread
is the machine's"): two identical configurations' 5-pair median ratio lies in 0.91–1.12 with both
CPUs busy, and 30-s windows vary by 6.7 % (one CPU) to 10.2 % (two), so the ratio of two single
windows by ~10–14 %. An effect below 1.1 is one this machine gives between identical runs; a
document that says "faster" means an effect a reader would see, so the claim does not hold when the
whole interval lies below 1.1 — whether the other side is ahead (high <= 1) or the effect is too
small to matter (the why says which) — and holds only when the whole interval lies above it.)"""

HOLDS = "holds"
HOLDS_OTHERWISE = "holds under another definition"
FAILS = "does not hold"
NOT_TESTABLE = "not testable"
NOT_TESTED = "not tested"
QUOTE_MISSING = "quote not in source"
NOT_IN_REGIME = "not in the source's regime"
INCONCLUSIVE = "inconclusive here"

VERDICTS = (HOLDS, HOLDS_OTHERWISE, FAILS, INCONCLUSIVE, NOT_TESTED, NOT_TESTABLE, QUOTE_MISSING, NOT_IN_REGIME)
FAILING = (FAILS, QUOTE_MISSING)  # what makes `engbench check-published` exit 1

__all__ = ["HOLDS", "HOLDS_OTHERWISE", "FAILS", "INCONCLUSIVE", "NOT_TESTABLE", "NOT_TESTED", "QUOTE_MISSING", "NOT_IN_REGIME", "VERDICTS", "FAILING"]
