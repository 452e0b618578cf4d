print("pushcheck")
