"""Framework integrations, each behind its own optional extra:

* ``turnsignal.integrations.litellm`` — a LiteLLM ``CustomLogger`` for the
  proxy (and the SDK): records the verdict where LiteLLM's loggers and spend
  logs see it, optionally routes and resets history
  (``pip install 'turnsignal[litellm]'``);
* ``turnsignal.integrations.langchain`` — LangChain v1 agent middleware and a
  LangGraph ``pre_model_hook`` that reset history
  (``pip install 'turnsignal[langchain]'``);
* ``turnsignal.integrations.openai_agents`` — a ``call_model_input_filter``
  for the OpenAI Agents SDK (``pip install 'turnsignal[openai-agents]'``).

Importing this package imports none of them. See docs/integrations.md.
"""
