"""owner_bot"""
