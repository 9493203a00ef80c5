"""The column dictionary of the findings' processed tables (data/processed/findings.csv,
findings_values.csv, published_checks.csv: engbench.findings and the published checks); the runs'
tables are engbench.tables.columns, whose TABLES holds these after its own, in this order."""

from __future__ import annotations

from .column import RUN_ID, column as _c

TABLES = {
    "findings": [_c("id", "", "findings", "", "the finding's id: <source number>-<what it claims> "
                    "(engbench.findings)"),
                 _c("source", "", "findings", "", "the source document's file"),
                 _c("document", "", "findings", "", "the source document's title and year"),
                 _c("words", "", "findings", "", "quoted from the document"),
                 _c("metric", "", "findings", "", "what the finding compares, in words, with its unit"),
                 _c("subject", "", "findings", "", "the engines and configurations the claim is about"),
                 _c("published", "", "published", "", "the document's own values"),
                 _c("measured", "", "findings", "", "mean (min–max, n) per configuration"),
                 _c("rule", "", "findings", "", "the stated rule the measured values are judged by "
                    "(engbench.rulebook)"),
                 _c("threshold", "", "findings", "", "where the rule needs the effect: beyond a factor (\"> 1.5\"), "
                    "at most one (\"<= 1.25\") or within a band (\"0.8–1.25\")"),
                 _c("effect", "×", "findings", "", "the effect the rule compares: a ratio of means, or a mean over "
                    "its target (engbench.effects; for several parts, the deciding part's)"),
                 _c("low", "×", "findings", "", "the effect's interval, lower end (Fieller's, or Student's t)"),
                 _c("high", "×", "findings", "", "the effect's interval, upper end"),
                 _c("level", "", "findings", "", "the interval's level: 0.95 (directional claims) or 0.90 "
                    "(equivalence: two one-sided tests at 5 %)"),
                 _c("rounds", "repetitions", "findings", "", "repetitions per side the effect rests on (the fewest)"),
                 _c("rounds_needed", "repetitions", "findings", "", "an inconclusive verdict's repetitions per side "
                    "that would decide it at the measured spread (engbench.effects.rounds_needed)"),
                 _c("verdict", "", "findings", "", "engbench.verdicts vocabulary"),
                 _c("why", "", "findings", "", "how the verdict follows from the values and the rule"),
                 _c("gate", "", "findings", "", "the regime gates of the compared configurations (rulebook.regime)"),
                 _c("regime", "", "findings", "", "what their runs measured of each gate")],
    "findings_values": [_c("id", "", "findings", "", "the finding's id (findings.id)"),
                        _c("label", "", "findings", "", "the configuration the run belongs to, as the finding "
                           "names it (engine, setting)"),
                        RUN_ID,
                        _c("repetition", "", "workflow", "", "the run's repetition within its configuration (1, "
                           "2, ...)"),
                        _c("value", "", "findings", "", "the run's value")],
    "published_checks": [
        _c("kind", "", "published", "", "arithmetic (a value others determine), claim (a sentence), or "
           "superlative (a best/worst/most/least/similar in a sentence)"),
        _c("document", "", "published", "", "the source document's file"),
        _c("table", "", "published", "", "the published table (data/published/<table>)"),
        _c("value", "", "published", "", "which value: row | column, or the claim's id and words"),
        _c("check", "", "published", "", "the relation or rule applied"),
        _c("expected", "", "published", "", "what the check allows (interval), or the rule's reading"),
        _c("found", "", "published", "", "the printed value, or the numbers the rule saw"),
        _c("verdict", "", "published", "", "engbench.verdicts vocabulary"),
        _c("benign_definition", "", "published", "", "the definition under which a value that does not hold "
           "as stated is consistent"),
        _c("why", "", "published", "", "the formula and inputs")],
}
