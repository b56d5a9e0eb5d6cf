//! The agent's face: `smolweb --mcp` over stdio with rmcp. The only module that knows rmcp.
