"""What the tests share: where things are and what is installed
(``environment``), assertions and stand-ins (``helpers``), Hypothesis
strategies (``strategies``, ``reset_strategies``), Claude Code session logs
(``claude_sessions``), requests rendered per wire format
(``conversation_render``) and the providers' own validity rules
(``provider_rules``). Helpers of one test folder stay in that folder."""
