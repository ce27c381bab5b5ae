print("authcat")
