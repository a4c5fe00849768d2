"""telegram"""
