"""Model servers we start and own: a llama.cpp server on 127.0.0.1 as a child process
(model_server.py, `mcagent llm serve`), and llama-cpp-python's server reporting its prompt-cache
hits (serve.py). It sits above agent.llm: a backend speaks to a server by its URL, never
through this package."""
