"""Adapters for RAG frameworks. Each lives in its own module and needs its own extra:

- :mod:`rulerewrite.integrations.langchain` — ``pip install 'rulerewrite[langchain]'``
  (``langchain-core`` only): :class:`~rulerewrite.integrations.langchain.RewritingRetriever`.

Importing this package imports no framework.
"""
