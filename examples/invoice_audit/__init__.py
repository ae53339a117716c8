"""Invoice audit: tool specs (tools/) and their in-process implementations (tools_impl.py)."""
